/**
 * A screen whose figures may be out of date offline and whose sending waits for the connection. It adds no
 * banner of its own (one offline notice per page, issue 26): the shell's banner says it for this screen,
 * "You are offline. Figures shown may be out of date; nothing will be sent until you are back online."
 */
import { useOfflineDetail } from '../pwa/offline-notice';

export function OfflineNote(): null {
  useOfflineDetail();
  return null;
}
