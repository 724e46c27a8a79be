/**
 * Faults of contactform/v1: routes missing, a form created without its id, updates ignored or
 * dry-run, deletes that keep the form, refusals of a missing id, submissions and the list.
 */
import { noRoute, serverError } from '../kit.ts';
import { json, type Fault } from '../proxy.ts';
import { isWrite, indexMissing } from './common.ts';

const FORMS = '/contactform/v1/contact-forms';
const FORM_ITEM = /^\/contactform\/v1\/contact-forms\/(\d+)$/;
const FORM_ANY = /^\/contactform\/v1\/contact-forms\/(\d+)(\/.*)?$/;

export const contactformFaults: Fault[] = [
  indexMissing('contactform/v1', 'contactform'),
  {
    id: 'ext.contactform.routes-missing',
    title: 'lacks the list, feedback, feedback/schema and refill routes',
    caughtBy: ['contactform.forms.list', 'contactform.forms.feedback', 'contactform.forms.feedback-schema', 'contactform.forms.refill'],
    request(req) {
      if (req.route === FORMS && req.method === 'GET') return noRoute();
      const m = FORM_ANY.exec(req.route);
      if (m && m[2]) return noRoute();
    },
  },
  {
    id: 'ext.contactform.create-without-id',
    title: 'answers a created form without its id',
    caughtBy: ['contactform.forms.create'],
    response(req, res) {
      if (req.route === FORMS && req.method === 'POST' && res.json && typeof res.json === 'object') delete res.json.id;
    },
  },
  {
    id: 'ext.contactform.read-broken',
    title: 'fails on GET /contact-forms/<id>',
    caughtBy: ['contactform.forms.read'],
    response(req, res) {
      if (FORM_ITEM.test(req.route) && req.method === 'GET' && res.status === 200) Object.assign(res, serverError());
    },
  },
  {
    id: 'ext.contactform.patch-missing',
    title: 'does not take PATCH on /contact-forms/<id>',
    caughtBy: ['contactform.forms.update'],
    request: (req) => (FORM_ITEM.test(req.route) && req.method === 'PATCH' ? noRoute() : undefined),
  },
  {
    id: 'ext.contactform.title-not-updated',
    title: 'ignores the title on update',
    caughtBy: ['contactform.forms.update-readback'],
    request(req) {
      if (FORM_ITEM.test(req.route) && isWrite(req) && req.json) delete req.json.title;
    },
  },
  {
    // As Contact Form 7 does without context "save": the answer shows the form as updated, nothing is stored.
    id: 'ext.contactform.update-dry-run',
    title: 'answers POST, PUT and PATCH /contact-forms/<id> as if the form were updated, storing nothing (a dry run)',
    caughtBy: ['contactform.forms.update-readback'],
    request(req) {
      if (FORM_ITEM.test(req.route) && isWrite(req) && req.json && typeof req.json === 'object') delete req.json.context;
    },
  },
  {
    id: 'ext.contactform.form-not-deleted',
    title: 'answers success on DELETE /contact-forms/<id> but keeps the form',
    caughtBy: ['contactform.forms.delete'],
    request: (req) => (FORM_ITEM.test(req.route) && req.method === 'DELETE' ? json(200, { deleted: true }) : undefined),
  },
  {
    id: 'ext.contactform.missing-id-accepted',
    title: 'answers 200 on every item route whatever the form id (no refusal at all)',
    caughtBy: ['contactform.forms.missing-id.*'],
    response(req, res) {
      if (FORM_ANY.test(req.route) && res.status >= 400 && res.status < 500) Object.assign(res, json(200, {}));
    },
  },
  {
    id: 'ext.contactform.items-not-found',
    title: 'answers every request for a form by id 404 wpcf7_not_found, whether the form exists or not',
    caughtBy: [
      'contactform.forms.missing-id.*',
      'contactform.forms.read',
      'contactform.forms.update',
      // (update-readback skips, depending on contactform.forms.read: the form cannot be read back)
      'contactform.forms.feedback',
      'contactform.forms.feedback-submit',
      'contactform.forms.feedback-schema',
      'contactform.forms.refill',
    ],
    request: (req) => (FORM_ANY.test(req.route) ? json(404, { code: 'wpcf7_not_found', message: 'The requested contact form was not found.', data: { status: 404 } }) : undefined),
  },
  {
    id: 'ext.contactform.feedback-without-status',
    title: 'answers a submission 200 without a status or the invalid fields',
    caughtBy: ['contactform.forms.feedback-submit'],
    response(req, res) {
      if (/^\/contactform\/v1\/contact-forms\/\d+\/feedback$/.test(req.route) && res.status === 200) res.json = { contact_form_id: res.json?.contact_form_id };
    },
  },
  {
    id: 'ext.contactform.not-listed',
    title: 'lists no forms',
    caughtBy: ['contactform.forms.listed'],
    response(req, res) {
      if (req.route === FORMS && req.method === 'GET' && res.status === 200) res.json = [];
    },
  },
];
