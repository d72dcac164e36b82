/** The member's profile read from the device replica, kept in step with the session's stored copy. */
import { useEffect } from 'react';
import { session } from '../../app/session';
import { useProfile as useReplicaProfile, type ProfileResult } from '../../lib/use-profile';

export function useProfile(): ProfileResult {
  const query = useReplicaProfile();
  const data = query.status === 'ready' ? query.data : undefined;
  useEffect(() => {
    // The stored user (vip, balance) is what /home shows: refresh it from the replica's figures.
    if (data) session.refreshed({ username: data.username, vip: data.vip, balance: data.balance });
  }, [data]);
  return query;
}
