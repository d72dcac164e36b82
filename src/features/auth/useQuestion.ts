/** Looks up an account's secret question (POST /api/index/question) for the two recovery flows. */
import { useState } from 'react';
import { api } from '../../api';
import { toFailure, type Failure } from '../../machines/failure';

export function useQuestion() {
  const [question, setQuestion] = useState<string | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  const lookup = async (username: string): Promise<boolean> => {
    setBusy(true);
    setFailure(null);
    try {
      // Silent: the refusal (3000 no such account) is shown on the form itself.
      const data = await api.call('/api/index/question', { username: username.trim() }, { silent: true });
      setQuestion(data.question);
      return true;
    } catch (error) {
      setFailure(toFailure(error));
      setQuestion(null);
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { question, failure, busy, lookup, clear: () => setQuestion(null) };
}
