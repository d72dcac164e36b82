/** Member-wide contract settings: leverage and margin mode (docs/RULES.md K6). */
import type { Ctx } from '../context';
import { Codes, fail } from '../errors';
import {
  DEFAULT_LEVERAGE,
  DEFAULT_MARGIN_MODE,
  openPositions,
  tradingSettings,
  type MarginMode,
  type TradingSettingsRow,
} from './tables';

export async function settingsOf(ctx: Ctx, memberId: string): Promise<TradingSettingsRow> {
  return (
    (await ctx.tx.get(tradingSettings, memberId)) ?? {
      id: memberId,
      leverage: DEFAULT_LEVERAGE,
      marginMode: DEFAULT_MARGIN_MODE,
    }
  );
}

/**
 * Changes leverage and/or margin mode for all of a member's contracts. Refused (403) while any position is
 * open, so a position's terms never change under it (K6).
 */
export async function changeSettings(
  ctx: Ctx,
  memberId: string,
  input: { leverage?: number | undefined; marginMode?: MarginMode | undefined },
): Promise<TradingSettingsRow> {
  const current = await settingsOf(ctx, memberId);
  const next: TradingSettingsRow = {
    id: memberId,
    leverage: input.leverage ?? current.leverage,
    marginMode: input.marginMode ?? current.marginMode,
  };
  if (next.leverage < 1 || next.leverage > ctx.config.maxLeverage) {
    throw fail(400, `Leverage must be between 1 and ${ctx.config.maxLeverage}`);
  }
  if (next.leverage === current.leverage && next.marginMode === current.marginMode) return current;
  if ((await openPositions(ctx, memberId)).length > 0) {
    throw fail(Codes.denied, 'Close your open positions before changing leverage or margin mode');
  }
  ctx.tx.put(tradingSettings, next);
  return next;
}
