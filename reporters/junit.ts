/**
 * JUnit XML: vitest's own JUnitReporter, with what a conformance run adds:
 * - one <testcase> per behaviour, named "<id> <title>" (vitest's test name), classname = the
 *   behaviour's namespace ("(site)" for the site index and batch) instead of the suite file;
 * - <properties> per testcase (vitest writes a test's annotations as properties): id, level,
 *   namespace, spec section, route, failure kind, and for failures listed in --baseline the
 *   baseline reason;
 * - <skipped message="reason"/> for every skip (vitest writes a bare <skipped/>).
 * Failures keep vitest's <failure message type> with the error and where the check stands.
 * It exists only during a run (it reads vitest's tasks), so it is not re-rendered from results.json.
 */
import type { RunnerTask as Task } from 'vitest';
import { JUnitReporter, experimental_getRunnerTask, type TestModule } from 'vitest/node';
import type { BehaviourMeta } from '../src/behaviour.ts';
import type { BaselineFile } from './baseline.ts';

const escapeXml = (s: string) =>
  s
    .replace(/[\0-\x08\v\f\x0E-\x1F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');

interface CaseInfo {
  classname: string;
  skipReason?: string;
}

export class BehaviourJUnitReporter extends JUnitReporter {
  private readonly cases = new Map<string, CaseInfo>();
  private current?: CaseInfo;

  constructor(
    outputFile: string,
    private readonly baseline?: BaselineFile,
  ) {
    super({ outputFile, suiteName: 'cms-conformance', includeConsoleOutput: false, addFileAttribute: true });
  }

  override async onInit(ctx: Parameters<JUnitReporter['onInit']>[0]): Promise<void> {
    await super.onInit(ctx);
    const logger = (this as unknown as { logger: { log(text: string): Promise<void> } }).logger;
    const log = logger.log.bind(logger);
    logger.log = (text: string) => {
      const reason = this.current?.skipReason;
      return log(text === '<skipped/>' && reason ? `<skipped message="${escapeXml(reason)}"/>` : text);
    };
  }

  override async onTestRunEnd(modules: ReadonlyArray<TestModule>): Promise<void> {
    const known = new Map((this.baseline?.failures ?? []).map((e) => [e.id, e]));
    const selected = new Set<string>();
    for (const m of modules) {
      for (const tc of m.children.allTests()) {
        const result = tc.result();
        if (result.state === 'pending' || (result.state === 'skipped' && tc.options.mode !== 'run')) continue; // not selected (--only)
        selected.add(tc.id);
        const meta = tc.meta().behaviour as BehaviourMeta | undefined;
        const task = experimental_getRunnerTask(tc);
        if (!meta || !task) continue;
        const skipReason = result.state === 'skipped' ? (result.note ?? 'skipped without a reason') : undefined;
        this.cases.set(task.name, { classname: meta.namespace || '(site)', ...(skipReason ? { skipReason } : {}) });
        const props: [string, string | undefined][] = [
          ['id', meta.id],
          ['level', meta.level],
          ['namespace', meta.namespace || '(site)'],
          ['spec', `${meta.spec.doc === 'core' ? 'core-routes.md' : 'extension-namespaces.md'} § ${meta.spec.section}`],
          ['route', meta.route],
          ['failure kind', result.state === 'failed' ? meta.failureKind : undefined],
          ['skip reason', skipReason],
          ['known failure (baseline)', result.state === 'failed' ? known.get(meta.id)?.reason : undefined],
        ];
        task.annotations = [
          ...task.annotations.filter((a) => !props.some(([k]) => k === a.type)),
          ...props.filter((p): p is [string, string] => p[1] !== undefined).map(([type, message]) => ({ type, message })),
        ];
      }
    }
    // Only the behaviours this run selected: vitest would list every test of every file, skipped.
    const prune = (t: Task): Task | undefined => {
      if (t.type === 'test') return selected.has(t.id) ? t : undefined;
      const tasks = t.tasks.map(prune).filter((x): x is Task => x !== undefined);
      return tasks.length || t.result?.errors?.length || t.result?.state === 'fail' ? ({ ...t, tasks } as Task) : undefined;
    };
    const kept = modules.map((m) => ({ task: prune(experimental_getRunnerTask(m)) })).filter((m) => m.task !== undefined);
    await super.onTestRunEnd(kept as unknown as TestModule[]);
  }

  override async writeElement(name: string, attrs: Record<string, any>, children: () => Promise<void>): Promise<void> {
    if (name !== 'testcase') return super.writeElement(name, attrs, children);
    const info = this.cases.get(attrs.name);
    this.current = info;
    try {
      return await super.writeElement(name, info ? { ...attrs, classname: info.classname } : attrs, children);
    } finally {
      this.current = undefined;
    }
  }
}
