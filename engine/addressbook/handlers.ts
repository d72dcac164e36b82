/**
 * The withdrawal address book (issue 27 item 3; API.md "Address book"; docs/RULES.md W7-W12): saved
 * addresses per network with a label, each usable by a whitelisted withdrawal only after its hold; the
 * whitelist mode; and the destination check the withdrawal form calls while the member types (what the
 * address is to the platform, whether it is saved). Every change needs the second factor of a member with
 * two-factor authentication ('addressBook').
 */
import { z } from 'zod';
import { networkSchema, requireAddress } from '../chain/schema';
import type { AuthCtx } from '../context';
import { Codes, fail } from '../errors';
import { handler } from '../router';
import type { Domain } from '../routes';
import { body } from '../schema';
import { requireSecondFactor, secondFactorShape } from '../twofactor/require';
import type { DestinationCheck } from './wire';
import { addressKind, requireLabel, savedEntry, whitelistOn } from './rules';
import { addressBookSettings, savedAddresses, type SavedAddressRow } from './tables';
import { savedAddressView } from './view';

async function listOf(ctx: AuthCtx): Promise<SavedAddressRow[]> {
  const rows = await ctx.tx.query(savedAddresses, 'member', ctx.member.id);
  return [...rows].sort((a, b) => b.createdAt - a.createdAt || Number(b.id) - Number(a.id));
}

export const addressBookDomain: Domain = {
  name: 'addressBook',
  handlers: {
    '/api/addressbook/list': handler({
      auth: true,
      run: async (ctx) => ({
        whitelist: await whitelistOn(ctx, ctx.member.id),
        holdSeconds: Math.floor(ctx.config.addressHoldMs / 1000),
        limit: ctx.config.addressBookLimit,
        list: (await listOf(ctx)).map(savedAddressView),
      }),
    }),

    '/api/addressbook/add': handler({
      auth: true,
      body: body({
        network: networkSchema,
        address: z.string().max(200),
        label: z.string().max(200),
        ...secondFactorShape,
      }),
      run: async (ctx, input) => {
        const address = requireAddress(input.network, input.address);
        const label = requireLabel(input.label);
        if ((await addressKind(ctx, ctx.member.id, input.network, address)) === 'own') {
          throw fail(
            Codes.ownDepositAddress,
            'This is your own deposit address: it cannot be a withdrawal address',
          );
        }
        const existing = await savedEntry(ctx, ctx.member.id, input.network, address);
        if (existing) {
          throw fail(Codes.addressAlreadySaved, 'This address is already in your address book', {
            id: existing.id,
          });
        }
        const count = (await ctx.tx.query(savedAddresses, 'member', ctx.member.id)).length;
        if (count >= ctx.config.addressBookLimit) {
          throw fail(Codes.addressBookFull, 'Your address book is full: remove an address first', {
            limit: ctx.config.addressBookLimit,
          });
        }
        await requireSecondFactor(ctx, ctx.member, 'addressBook', input);
        const row: SavedAddressRow = {
          id: await ctx.ids.next('savedAddress'),
          memberId: ctx.member.id,
          network: input.network,
          address,
          label,
          createdAt: ctx.now,
          usableAt: ctx.now + ctx.config.addressHoldMs,
        };
        ctx.tx.put(savedAddresses, row);
        return savedAddressView(row);
      },
    }),

    '/api/addressbook/remove': handler({
      auth: true,
      body: body({ id: z.string().max(64), ...secondFactorShape }),
      run: async (ctx, input) => {
        const row = await ctx.tx.get(savedAddresses, input.id);
        if (!row || row.memberId !== ctx.member.id) {
          throw fail(Codes.savedAddressUnknown, 'No such address in your address book');
        }
        await requireSecondFactor(ctx, ctx.member, 'addressBook', input);
        ctx.tx.delete(savedAddresses, row.id);
        return null;
      },
    }),

    '/api/addressbook/whitelist': handler({
      auth: true,
      body: body({ on: z.boolean(), ...secondFactorShape }),
      run: async (ctx, input) => {
        await requireSecondFactor(ctx, ctx.member, 'addressBook', input);
        ctx.tx.put(addressBookSettings, {
          id: ctx.member.id,
          memberId: ctx.member.id,
          whitelist: input.on,
          updatedAt: ctx.now,
        });
        return { whitelist: input.on };
      },
    }),

    '/api/addressbook/check': handler({
      auth: true,
      body: body({ network: networkSchema, address: z.string().max(200) }),
      run: async (ctx, input): Promise<DestinationCheck> => {
        const address = requireAddress(input.network, input.address);
        const saved = await savedEntry(ctx, ctx.member.id, input.network, address);
        const kind = await addressKind(ctx, ctx.member.id, input.network, address);
        const whitelist = await whitelistOn(ctx, ctx.member.id);
        // The code a withdrawal there would be refused with now (W9, W10), for the form to show first.
        let refusal: DestinationCheck['refusal'] = null;
        if (kind === 'own') refusal = Codes.ownDepositAddress;
        else if (whitelist && !saved) refusal = Codes.addressNotWhitelisted;
        else if (whitelist && saved && saved.usableAt > ctx.now) refusal = Codes.addressOnHold;
        return { address, kind, saved: saved ? savedAddressView(saved) : null, whitelist, refusal };
      },
    }),
  },
};
