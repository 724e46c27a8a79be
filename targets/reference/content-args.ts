/**
 * The args of the `cms/v2` content routes where WordPress does more than the catalog states: arg
 * hooks (callbacks a schema does not express) and schema overlays (what WordPress's schema has).
 */
import { RestError, authCode, restError } from './errors.ts';
import { sanitizeTitle, type PostType } from './content-store.ts';
import type { WpSchema } from './schema.ts';
import type { ArgHook } from './types.ts';
import { isPlainObject, parseList, validateValue } from './validate.ts';

// ---------------------------------------------------------------------------
// Arg hooks: WordPress callbacks a schema does not express
// ---------------------------------------------------------------------------

/**
 * `status` filter: sanitize_post_statuses(). A status other than the default needs edit_posts;
 * anonymous users get rest_forbidden_status (so 400 rest_invalid_param with the code in details).
 */
export function statusFilterHook(defaultStatus: string): ArgHook {
  return {
    validate: () => true,
    sanitize(value, req, param, schema) {
      const statuses = parseList(value).map((s) => sanitizeTitle(String(s)));
      for (const s of statuses) {
        if (s === defaultStatus) continue;
        if (!req.loggedIn) return restError('rest_forbidden_status', 'Status is forbidden.', authCode(false));
        const r = validateValue(s, schema, param);
        if (r !== true) return r;
      }
      return statuses;
    },
  };
}

/** `status` on write: check_status() also accepts the item's current status. */
export function writeStatusHook(type: PostType): ArgHook {
  return {
    validate(value, req, param, schema, ctx) {
      const id = Number(req.get('id'));
      const rec = id > 0 ? ctx.site.content.get(id, type) : undefined;
      if (rec && rec.status === value) return true;
      return validateValue(value, schema, param);
    },
  };
}

/** `template`: check_template(). The site's theme has no templates, so only '' or the current value passes. */
export function templateHook(type: PostType): ArgHook {
  return {
    validate(value, req, _param, _schema, ctx) {
      if (!value) return true;
      const id = Number(req.get('id'));
      const rec = id > 0 ? ctx.site.content.get(id, type) : undefined;
      if (rec && rec.template === value) return true;
      const allowed: string[] = [];
      return new RestError('rest_invalid_param', `template is not one of ${allowed.join(', ')}.`);
    },
  };
}

/** title / content / excerpt: WordPress registers them without validation (a string or {raw} is accepted). */
export const NO_VALIDATION: ArgHook = { validate: () => true, sanitize: (v) => v };

/**
 * title / content / excerpt of posts and pages on write: WordPress takes a string or an object with
 * `raw` (NO_VALIDATION); in the `text-fields=object` dialect only the documented object (part 2:
 * "title | object | raw (string, context edit) ..."), its `raw` a string: anything else is refused as
 * an invalid parameter.
 */
export const TEXT_FIELD: ArgHook = {
  validate(value, _req, param, _schema, ctx) {
    if (ctx.site.dialect.textFields !== 'object') return true;
    if (isPlainObject(value) && (value.raw === undefined || typeof value.raw === 'string')) return true;
    return new RestError('rest_invalid_type', isPlainObject(value) ? `${param}[raw] is not of type string.` : `${param} is not of type object.`, { param });
  },
  sanitize: (v) => v,
};

/**
 * What WordPress's schema has where the catalog states less: the titles of the two forms of a
 * taxonomy filter (they appear in its error messages), the item type of `terms` and the type of
 * `operator`, and `type: string` of the `context` / `order` / `orderby` args stated without a type.
 */
export const TERM_LIST: WpSchema = { title: 'Term ID List', description: 'Match terms with the listed IDs.' };
export const taxQuery = (props: Record<string, WpSchema>): WpSchema => ({
  title: 'Term ID Taxonomy Query',
  description: 'Perform an advanced term query.',
  properties: props,
});
export const TERMS: WpSchema = { type: 'array', items: { type: 'integer' } };
export const OPERATOR: WpSchema = { type: 'string' };
export const POST_LIST_OVERLAY: Record<string, WpSchema> = {
  categories: { oneOf: [TERM_LIST, taxQuery({ terms: TERMS, operator: OPERATOR })] },
  categories_exclude: { oneOf: [TERM_LIST, taxQuery({ terms: TERMS })] },
  tags: { oneOf: [TERM_LIST, taxQuery({ terms: TERMS, operator: OPERATOR })] },
  tags_exclude: { oneOf: [TERM_LIST, taxQuery({ terms: TERMS })] },
};
export const STRING: WpSchema = { type: 'string' };
export const CONTEXT_OVERLAY: Record<string, WpSchema> = { context: STRING };
export const REVISIONS_OVERLAY: Record<string, WpSchema> = { context: STRING, order: STRING, orderby: STRING };

/** meta: check_meta_is_array() only; the footnotes type is checked when the value is written. */
export const META_HOOK: ArgHook = { validate: (v) => isPlainObject(v) || Array.isArray(v), sanitize: (v) => v };

/** The write hooks of a post type's create, update and autosave. */
export function postWriteHooks(type: PostType): Record<string, ArgHook> {
  return {
    title: TEXT_FIELD,
    content: TEXT_FIELD,
    excerpt: TEXT_FIELD,
    meta: META_HOOK,
    status: writeStatusHook(type),
    template: templateHook(type),
  };
}
