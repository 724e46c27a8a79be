/** Errors that the CLI turns into one clear line and an exit code (never a stack trace). */
import { EXIT } from '../../results/verdict.ts';

/** Bad flags, bad environment, bad config: exit 2. */
export class UsageError extends Error {
  readonly exitCode = EXIT.usage;
  override name = 'UsageError';
}

/** The target cannot be reached or booted: exit 3. */
export class UnreachableError extends Error {
  readonly exitCode = EXIT.unreachable;
  override name = 'UnreachableError';
}

/**
 * A request to the target failed at the network level (refused, reset, timed out) after retries.
 * Inside a behaviour this is reported as a target error, distinct from both a conformance
 * failure and a harness bug.
 */
export class TargetError extends Error {
  override name = 'TargetError';
  constructor(message: string, readonly code?: string) {
    super(message);
  }
}

/** A documented behaviour the server does not follow. */
export class ConformanceFailure extends Error {
  override name = 'ConformanceFailure';
  constructor(message: string, readonly details?: Record<string, unknown>) {
    super(message);
    // The server's fault, not a place in our code: no stack, so no code frame in the output.
    this.stack = `${this.name}: ${message}`;
  }
}

/**
 * A write the run may not send (--read-only, no --allow-writes on a site that is not on loopback):
 * the client refuses it before anything goes on the wire, so a read-only run sends no write,
 * whatever a check tries. The behaviour that tried skips with the reason.
 */
export class WritesNotAllowed extends Error {
  override name = 'WritesNotAllowed';
  constructor(
    readonly method: string,
    readonly route: string,
    readonly reason: string,
  ) {
    super(`writes not allowed: ${reason} (${method} ${route} was not sent)`);
  }
}
