/**
 * What a suite speaks to a target with, through the one door of src/ that suites/ and generators/
 * use (src/sdk/): the client's types, the wire forms of the documents (text fields as objects,
 * queries as comma lists), and the errors a request or a check ends in.
 */
export type { Client, Exchange, Method, QueryValue, RequestOptions, Response } from '../http/client.ts';
export { serializeQuery } from '../http/client.ts';
export { OBJECT_ENCODINGS, encodeObjects, rawText, textFields, textObject, type ObjectEncoding } from '../http/wire.ts';
export { ConformanceFailure, TargetError } from '../core/errors.ts';
