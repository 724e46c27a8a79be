/** Every named fault, by area. A later self-test runs the suite once per fault. */
import { clientFaults } from './clients.ts';
import { cmsFaults, cmsModelFaults } from './cms/index.ts';
import { coreFaults } from './core/index.ts';
import { discoveryFaults } from './discovery.ts';
import { extensionFaults } from './extensions/index.ts';
import type { Fault } from './proxy.ts';

export const allFaults: Fault[] = [...discoveryFaults, ...coreFaults, ...extensionFaults, ...cmsFaults, ...cmsModelFaults, ...clientFaults];

export function faultById(id: string): Fault {
  const f = allFaults.find((x) => x.id === id);
  if (!f) throw new Error(`no fault named ${id}`);
  return f;
}
