/**
 * Error values of the reference server, shaped like WordPress's WP_Error as the REST API
 * serialises it (wordpress-behaviour.md §2): `{code, message, data}`, HTTP status = data.status
 * or 500, extra data of the same code under `additional_data`.
 */

export class RestError {
  constructor(
    readonly code: string,
    readonly message: string,
    readonly data: unknown = null,
    /** Earlier data of the same code (WP_Error::add_data keeps it), serialised as additional_data. */
    readonly additionalData: unknown[] = [],
  ) {}

  get status(): number {
    const d = this.data as { status?: unknown } | null;
    return d && typeof d === 'object' && typeof d.status === 'number' ? d.status : 500;
  }

  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { code: this.code, message: this.message, data: this.data };
    if (this.additionalData.length) body.additional_data = this.additionalData;
    return body;
  }

  /** The `{code, message, data}` of this error, as WordPress puts it in `details` of rest_invalid_param. */
  toDetails(): Record<string, unknown> {
    return { code: this.code, message: this.message, data: this.data };
  }
}

export const isRestError = (v: unknown): v is RestError => v instanceof RestError;

/** An error with `data: {status}` (plus extra data fields). */
export function restError(code: string, message: string, status: number, extra: Record<string, unknown> = {}): RestError {
  return new RestError(code, message, { status, ...extra });
}

/** rest_authorization_required_code(): 401 when not logged in, 403 when logged in. */
export const authCode = (loggedIn: boolean): number => (loggedIn ? 403 : 401);

/** The generic permission failure (a permission callback returned false). */
export function restForbidden(loggedIn: boolean, message = 'Sorry, you are not allowed to do that.'): RestError {
  return restError('rest_forbidden', message, authCode(loggedIn));
}

export const noRoute = (): RestError =>
  restError('rest_no_route', 'No route was found matching the URL and request method.', 404);
