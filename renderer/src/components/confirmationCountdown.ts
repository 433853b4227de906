import { useEffect, useState } from 'react';
import type { RiskLevel, ToolConfirmationRequest } from '../../../src/shared/confirmation';

// Apart from ConfirmationCard (antd's Descriptions and Progress): the Chat page's tool cards count down too, and load only this.

export const RISK_COLOR: Record<RiskLevel, string> = { low: 'green', medium: 'orange', high: 'red' };

/** When a question was put and when it is declined unanswered (the host's clock). */
type Deadline = Pick<ToolConfirmationRequest, 'createdAt' | 'expiresAt'>;

/**
 * When the local deadline is. `expiresAt` is the host's clock; the UI may run
 * on another machine (serve over an SSH tunnel), so a deadline that is
 * already past or further than the whole window away is taken as clock skew
 * and the full window (expiresAt - createdAt) is counted from now instead.
 */
function localDeadline(request: Deadline, now: number): number {
  const windowMs = request.expiresAt - request.createdAt;
  const remaining = request.expiresAt - now;
  return now + (remaining > 0 && remaining <= windowMs + 1000 ? remaining : windowMs);
}

export function useCountdown(request: Deadline): { seconds: number; percent: number } {
  const [deadline] = useState(() => localDeadline(request, Date.now()));
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  const windowMs = Math.max(1, request.expiresAt - request.createdAt);
  const leftMs = Math.max(0, deadline - now);
  return { seconds: Math.ceil(leftMs / 1000), percent: Math.min(100, (leftMs / windowMs) * 100) };
}
