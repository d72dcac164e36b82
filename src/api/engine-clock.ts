/**
 * The time the engine answers by, in ms: in demo mode the engine's clock (the wall clock plus however far the
 * demo tools fast-forwarded it, learnt from the worker), in live mode the device's clock. Screens that cut
 * the engine's records by time (today's PnL from 00:00 UTC) read it, not Date.now. Its own module, so only
 * the screens that read it load it (not /home's first-data path).
 */
import { demoControls } from './index';

export function engineNow(): number {
  return demoControls()?.clock() ?? Date.now();
}
