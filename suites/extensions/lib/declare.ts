/**
 * The one way an extension behaviour (spamfilter/v1, contactform/v1, suite/v4) is declared:
 * `extDecl('contactform.forms.read', { namespace, route, title, spec, covers })`, level MUST
 * unless given. The ID is written whole (or as a template whose fixed part is), so grepping a
 * behaviour ID finds the line that declares it.
 */
import type { BehaviourDecl, Level } from '../../../results/results.ts';

export type ExtDeclFields = Omit<BehaviourDecl, 'id' | 'level'> & { level?: Level; route: string };

export function extDecl(id: string, fields: ExtDeclFields): BehaviourDecl {
  const { level = 'MUST', ...rest } = fields;
  return { id, level, ...rest };
}
