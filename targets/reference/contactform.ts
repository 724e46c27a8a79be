/**
 * The contact-form namespace (`contactform/v1`). Its parameters and payloads are not shown by the
 * spec; everything here follows Contact Form 7's REST controller (wordpress-behaviour.md §11):
 * permission failures are 403 wpcf7_forbidden even for anonymous users and are checked before
 * existence, a missing form is 404 wpcf7_not_found, create answers 200 (not 201) with the form,
 * feedback needs multipart/form-data (else 415) and a unit tag, and answers 200 with a `status`.
 * A form is stored (created or updated) only with `context: "save"`; without it the answer shows
 * the form as it would be, and nothing is stored (wpcf7_save_contact_form's context).
 * A submission that passes validation and the spam check is reported as mail_sent (the reference
 * site's "mailer" always succeeds) and kept in memory.
 */
import { createHash } from 'node:crypto';
import { restError } from './errors.ts';
import { scanFormTags, type ContactForm } from './contactform-store.ts';
import type { HandlerContext, HandlerTable, RestRequest } from './types.ts';
import { isPlainObject } from './validate.ts';

const forbidden = (message: string) => restError('wpcf7_forbidden', message, 403);
const notFound = () => restError('wpcf7_not_found', 'The requested contact form was not found.', 404);
const canEdit = (message: string) => (req: RestRequest) => (req.loggedIn ? true : forbidden(message));
const ITEM_FORBIDDEN = 'You are not allowed to access the requested contact form.';

function formOf(req: RestRequest, ctx: HandlerContext): ContactForm | undefined {
  return ctx.site.forms.forms.get(Number(req.get('id')));
}

function properties(form: ContactForm): Record<string, unknown> {
  const settings = form.additional_settings
    .split('\n')
    .map((line) => /^([a-zA-Z0-9_]+)[\t ]*:(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => {
      const v = m[2]!.trim();
      return [m[1]!.trim(), v === 'on' || v === 'true' ? true : v === 'off' || v === 'false' ? false : v];
    });
  return {
    form: {
      content: form.form,
      fields: scanFormTags(form.form).map((t) => ({
        type: t.type,
        basetype: t.basetype,
        name: t.name,
        options: t.options,
        raw_values: t.raw_values,
        labels: t.labels,
        values: t.values,
        pipes: [],
        content: t.content,
      })),
    },
    mail: form.mail,
    mail_2: form.mail_2,
    messages: form.messages,
    additional_settings: { content: form.additional_settings, settings },
  };
}

const itemBody = (form: ContactForm) => ({ id: form.id, slug: form.slug, title: form.title, locale: form.locale, properties: properties(form) });

/** wpcf7_save_contact_form(): only the properties sent change. */
function applyFields(form: ContactForm, req: RestRequest): void {
  const str = (k: string) => (typeof req.get(k) === 'string' ? (req.get(k) as string) : undefined);
  const obj = (k: string) => (isPlainObject(req.get(k)) ? (req.get(k) as Record<string, unknown>) : undefined);
  const title = str('title');
  if (title !== undefined) form.title = title;
  const locale = str('locale');
  if (locale !== undefined) form.locale = locale;
  const f = str('form');
  if (f !== undefined) form.form = f;
  const mail = obj('mail');
  if (mail) form.mail = { ...form.mail, ...mail };
  const mail2 = obj('mail_2');
  if (mail2) form.mail_2 = { ...form.mail_2, ...mail2 };
  const messages = obj('messages');
  if (messages) form.messages = { ...form.messages, ...(messages as Record<string, string>) };
  const extra = str('additional_settings');
  if (extra !== undefined) form.additional_settings = extra;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const contactformHandlers: HandlerTable = {
  'contactform.forms.collection.list': {
    permission: canEdit('You are not allowed to access contact forms.'),
    handler(req, ctx) {
      let forms = [...ctx.site.forms.forms.values()];
      const search = req.get('search');
      if (typeof search === 'string' && search) forms = forms.filter((f) => f.title.toLowerCase().includes(search.toLowerCase()));
      const orderby = req.get('orderby') === 'title' ? 'title' : 'id';
      const desc = String(req.get('order') ?? 'ASC').toUpperCase() === 'DESC';
      forms.sort((a, b) => (orderby === 'title' ? a.title.localeCompare(b.title) : a.id - b.id) * (desc ? -1 : 1));
      const offset = Number(req.get('offset') ?? 0) || 0;
      const perPage = Number(req.get('per_page') ?? -1);
      forms = forms.slice(offset, perPage > 0 ? offset + perPage : undefined);
      return forms.map((f) => ({ id: f.id, hash: f.hash, slug: f.slug, title: f.title, locale: f.locale }));
    },
  },
  'contactform.forms.collection.create': {
    permission: canEdit('You are not allowed to create a contact form.'),
    handler(req, ctx) {
      if (Number(req.get('id') ?? 0)) return restError('wpcf7_post_exists', 'Cannot create existing contact form.', 400);
      // Only context "save" stores the form; otherwise the answer is the unsaved form (id null).
      if (req.get('context') !== 'save') {
        const draft = ctx.site.forms.draft();
        applyFields(draft, req);
        return { ...itemBody(draft), id: null, slug: null, config_errors: [] };
      }
      const form = ctx.site.forms.create({});
      applyFields(form, req);
      return { ...itemBody(form), config_errors: [] };
    },
  },
  'contactform.forms.item.read': {
    permission: canEdit(ITEM_FORBIDDEN),
    handler: (req, ctx) => {
      const form = formOf(req, ctx);
      return form ? itemBody(form) : notFound();
    },
  },
  'contactform.forms.item.update': {
    permission: canEdit(ITEM_FORBIDDEN),
    handler(req, ctx) {
      const stored = formOf(req, ctx);
      if (!stored) return notFound();
      // Only context "save" stores the changes; otherwise the answer shows them on a copy.
      const form = req.get('context') === 'save' ? stored : structuredClone(stored);
      applyFields(form, req);
      return { ...itemBody(form), config_errors: [] };
    },
  },
  'contactform.forms.item.delete': {
    permission: canEdit(ITEM_FORBIDDEN),
    handler(req, ctx) {
      const form = formOf(req, ctx);
      if (!form) return notFound();
      ctx.site.forms.forms.delete(form.id);
      return { deleted: true };
    },
  },
  'contactform.forms.feedback.create': {
    handler(req, ctx) {
      if (!/^multipart\/form-data/i.test(req.contentType))
        return restError('wpcf7_unsupported_media_type', 'The request payload format is not supported.', 415);
      const form = formOf(req, ctx);
      if (!form) return notFound();
      const unitTag = String(req.get('_wpcf7_unit_tag') ?? '').replace(/[^A-Za-z0-9_-]/g, '');
      if (!unitTag) return restError('wpcf7_unit_tag_not_found', 'There is no valid unit tag.', 400);

      const posted: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(req.body)) if (!k.startsWith('_')) posted[k] = v;
      const invalid: { field: string; message: string; idref: null; error_id: string }[] = [];
      for (const tag of scanFormTags(form.form)) {
        if (!tag.name) continue;
        const value = String(posted[tag.name] ?? '').trim();
        let message: string | undefined;
        if (tag.type.endsWith('*') && value === '') message = form.messages.invalid_required;
        else if (tag.basetype === 'email' && value !== '' && !EMAIL.test(value)) message = form.messages.invalid_email;
        if (message) invalid.push({ field: tag.name, message, idref: null, error_id: `${unitTag}-ve-${tag.name}` });
      }
      const result = (status: string, message: string, hash: string) => ({
        contact_form_id: form.id,
        status,
        message,
        posted_data_hash: hash,
        into: `#${unitTag}`,
        invalid_fields: invalid,
      });
      if (invalid.length) return result('validation_failed', form.messages.validation_error ?? '', '');
      // A User-Agent shorter than 2 characters is spam.
      if ((req.headers['user-agent'] ?? '').length < 2) return result('spam', form.messages.spam ?? '', '');
      const hash = createHash('md5').update(JSON.stringify(posted)).digest('hex');
      form.submissions.push({ ...posted, _posted_data_hash: hash });
      return result('mail_sent', form.messages.mail_sent_ok ?? '', hash);
    },
  },
  'contactform.forms.feedback-schema.read': {
    handler(req, ctx) {
      const form = formOf(req, ctx);
      if (!form) return notFound();
      const rules: Record<string, unknown>[] = [];
      for (const tag of scanFormTags(form.form)) {
        if (!tag.name) continue;
        if (tag.type.endsWith('*')) rules.push({ rule: 'required', field: tag.name, error: form.messages.invalid_required });
        if (tag.basetype === 'email') rules.push({ rule: 'email', field: tag.name, error: form.messages.invalid_email });
      }
      return { version: 'Contact Form 7 SWV Schema 2024-10', locale: form.locale, rules };
    },
  },
  'contactform.forms.refill.read': {
    handler(req, ctx) {
      // The wpcf7_refill_response filter output: [] unless a quiz or captcha adds keys.
      return formOf(req, ctx) ? [] : notFound();
    },
  },
};
