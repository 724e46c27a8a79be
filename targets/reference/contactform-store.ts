/**
 * Contact forms in memory, shaped like Contact Form 7's (the spec shows no fields): a form
 * template of form-tags, mail settings, messages and additional settings. Form IDs come from the
 * posts ID sequence, as CF7 forms are posts.
 */
import { createHash } from 'node:crypto';
import type { ContentStore } from './content-store.ts';

export interface FormTag {
  type: string;
  basetype: string;
  raw_name: string;
  name: string;
  options: string[];
  raw_values: string[];
  values: string[];
  labels: string[];
  attr: string;
  content: string;
}

export interface ContactForm {
  id: number;
  hash: string;
  slug: string;
  title: string;
  locale: string;
  form: string;
  mail: Record<string, unknown>;
  mail_2: Record<string, unknown>;
  messages: Record<string, string>;
  additional_settings: string;
  submissions: Record<string, unknown>[];
}

/** CF7's default form template. */
export const DEFAULT_FORM = `<label> Your name
    [text* your-name autocomplete:name] </label>

<label> Your email
    [email* your-email autocomplete:email] </label>

<label> Subject
    [text* your-subject] </label>

<label> Your message (optional)
    [textarea your-message] </label>

[submit "Submit"]`;

const DEFAULT_MESSAGES: Record<string, string> = {
  mail_sent_ok: 'Thank you for your message. It has been sent.',
  mail_sent_ng: 'There was an error trying to send your message. Please try again later.',
  validation_error: 'One or more fields have an error. Please check and try again.',
  spam: 'There was an error trying to send your message. Please try again later.',
  accept_terms: 'You must accept the terms and conditions before sending your message.',
  invalid_required: 'Please fill out this field.',
  invalid_too_long: 'This field has a too long input.',
  invalid_too_short: 'This field has a too short input.',
  upload_failed: 'There was an unknown error uploading the file.',
  invalid_email: 'Please enter an email address.',
};

function defaultMail(siteName: string): Record<string, unknown> {
  return {
    active: true,
    subject: `${siteName} "[your-subject]"`,
    sender: `${siteName} <wordpress@example.org>`,
    recipient: '[_site_admin_email]',
    body: 'From: [your-name] [your-email]\nSubject: [your-subject]\n\nMessage Body:\n[your-message]',
    additional_headers: 'Reply-To: [your-email]',
    attachments: '',
    use_html: false,
    exclude_blank: false,
  };
}

/** The form-tags of a form template (`[type* name option "value"]`), submit buttons included. */
export function scanFormTags(form: string): FormTag[] {
  const out: FormTag[] = [];
  const re = /\[([a-zA-Z_][0-9a-zA-Z:._-]*)(\*?)(?:\s+([^\]]*))?\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(form))) {
    const basetype = m[1]!;
    const rest = (m[3] ?? '').trim();
    const parts = rest.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
    const first = parts[0] && !/^["']/.test(parts[0]) && !parts[0].includes(':') ? parts[0] : '';
    const name = basetype === 'submit' ? '' : first;
    const after = name ? parts.slice(1) : parts;
    const values = after.filter((p) => /^["']/.test(p)).map((p) => p.slice(1, -1));
    out.push({
      type: `${basetype}${m[2]}`,
      basetype,
      raw_name: name,
      name,
      options: after.filter((p) => !/^["']/.test(p)),
      raw_values: values,
      values,
      labels: values,
      attr: '',
      content: '',
    });
  }
  return out;
}

export class FormStore {
  readonly forms = new Map<number, ContactForm>();

  constructor(private readonly content: ContentStore) {
    this.create({ title: 'Contact form 1' });
  }

  create(fields: Partial<ContactForm>): ContactForm {
    const form = this.draft(fields, this.content.newId());
    this.forms.set(form.id, form);
    return form;
  }

  /** A form that is not stored (id 0 until saved). */
  draft(fields: Partial<ContactForm> = {}, id = 0): ContactForm {
    const title = fields.title ?? 'Untitled';
    const form: ContactForm = {
      id,
      hash: createHash('sha1').update(`form-${id}`).digest('hex').slice(0, 7),
      slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || String(id),
      title,
      locale: fields.locale ?? 'en_US',
      form: fields.form ?? DEFAULT_FORM,
      mail: fields.mail ?? defaultMail('Reference Site'),
      mail_2: fields.mail_2 ?? { ...defaultMail('Reference Site'), active: false },
      messages: { ...DEFAULT_MESSAGES, ...(fields.messages ?? {}) },
      additional_settings: fields.additional_settings ?? '',
      submissions: [],
    };
    return form;
  }
}
