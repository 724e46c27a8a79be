/**
 * The one way a behaviour of a post type (`cms/v2` posts and pages) is declared:
 * `cmsDecl(type, 'auth.update', { level, title, route, spec, covers })` is the behaviour
 * `cms.<type>.auth.update` of namespace cms/v2. Write the ID's tail whole, so that grepping any
 * behaviour ID without its `cms.<type>.` (`auth.update`) finds the line that declares it.
 */
import type { BehaviourDecl } from '../../../results/results.ts';
import type { PostType } from './collections.ts';

export type CmsDeclFields = Omit<BehaviourDecl, 'id' | 'namespace'> & { route: string };

export function cmsDecl(type: PostType, idTail: string, fields: CmsDeclFields): BehaviourDecl {
  return { id: `cms.${type.name}.${idTail}`, namespace: 'cms/v2', ...fields };
}
