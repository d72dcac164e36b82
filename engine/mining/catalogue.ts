/**
 * Mining pledges (SPEC.md §3 "Pledge"): lock USDT for a fixed period in seconds; the pledge interest (a
 * rate for the whole period) is paid together with the principal when the period ends (P1-P2).
 */
import { units, type Micro } from '../money';

export interface MachineSpec {
  id: string;
  name: string;
  /** Interest for the whole period, in basis points of the pledge. */
  interestBps: number;
  periodSeconds: number;
  min: Micro;
  max: Micro;
}

const DAY = 86_400;

export const MACHINES: readonly MachineSpec[] = [
  {
    id: '1',
    name: 'Hash Pool S7',
    interestBps: 120,
    periodSeconds: 7 * DAY,
    min: units(100),
    max: units(50_000),
  },
  {
    id: '2',
    name: 'Hash Pool S15',
    interestBps: 300,
    periodSeconds: 15 * DAY,
    min: units(500),
    max: units(100_000),
  },
  {
    id: '3',
    name: 'Hash Pool S30',
    interestBps: 750,
    periodSeconds: 30 * DAY,
    min: units(1_000),
    max: units(200_000),
  },
];

export function findMachine(id: string): MachineSpec | undefined {
  return MACHINES.find((m) => m.id === id);
}
