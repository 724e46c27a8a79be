/** Every named fault, by area. A later self-test runs the suite once per fault. */
import { discoveryFaults } from './discovery.ts';
import type { Fault } from './proxy.ts';

export const allFaults: Fault[] = [...discoveryFaults];

export function faultById(id: string): Fault {
  const f = allFaults.find((x) => x.id === id);
  if (!f) throw new Error(`no fault named ${id}`);
  return f;
}
