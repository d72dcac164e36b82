/** The member's profile (POST /api/user/getuser), kept in step with the session's stored copy. */
import { useEffect } from 'react';
import { api } from '../../api';
import type { MemberProfile } from '../../../engine/index';
import { session } from '../../app/session';
import { useQuery } from '../../ui/useQuery';

export function useProfile() {
  const query = useQuery<MemberProfile>(() => api.call('/api/user/getuser', undefined, { silent: true }));
  const data = query.status === 'ready' ? query.data : undefined;
  useEffect(() => {
    // The stored user (vip, balance) is what /home shows: refresh it from the server's answer.
    if (data) session.refreshed({ username: data.username, vip: data.vip, balance: data.balance });
  }, [data]);
  return query;
}
