/**
 * Knowing whether a failed request had been written: the line between `retryable` (nothing
 * reached the service) and `ambiguous` (a write may have been applied).
 *
 * undici tells its low-level handler `onConnect` right before it writes a request on a connected
 * socket and `onRequestSent` once the whole request is handed to the socket. A thin dispatcher
 * wraps each request's handler to record both. Interceptor chains (`dispatcher.compose`) drop
 * `onRequestSent`, so for a dispatcher given by the caller this signal is trusted only once it
 * has been seen at least once; until then the error code decides, and doubt means "written".
 */
import { Dispatcher } from 'undici';

export interface WriteProgress {
  /** The request was dispatched on a connected socket (undici is about to write it). */
  connected: boolean;
  /** The whole request was handed to the socket, or an answer started arriving. */
  sent: boolean;
}

/** Codes that can only happen before anything is written on a socket. */
const BEFORE_WRITE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
  'UND_ERR_DESTROYED',
  'UND_ERR_INVALID_ARG',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** Codes that only happen while waiting for the answer: the request was written. */
const AFTER_WRITE = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

type LegacyHandler = Dispatcher.DispatchHandler & {
  onRequestSent?: () => void;
};

/** One per client: learns whether the dispatcher reports `onRequestSent`. */
export class WriteTracker {
  #sentObservable: boolean;

  /** `ownDispatcher`: a plain undici Pool made by the client, known to report `onRequestSent`. */
  constructor(
    private readonly inner: Dispatcher,
    ownDispatcher: boolean,
  ) {
    this.#sentObservable = ownDispatcher;
  }

  /** A dispatcher for one request that records its progress into `progress`. */
  track(progress: WriteProgress): Dispatcher {
    return new TrackingDispatcher(this.inner, progress, () => {
      this.#sentObservable = true;
    });
  }

  /** Whether a request that failed with `cause` may have reached the service. */
  wasWritten(progress: WriteProgress, cause: unknown): boolean {
    const code = errorCode(cause);
    if (progress.sent || (code !== undefined && AFTER_WRITE.has(code))) return true;
    if (!progress.connected) return false;
    if (code !== undefined && BEFORE_WRITE.has(code)) return false;
    // Connected but not reported sent: trust that only when this dispatcher does report it.
    return !this.#sentObservable;
  }
}

class TrackingDispatcher extends Dispatcher {
  constructor(
    private readonly inner: Dispatcher,
    private readonly progress: WriteProgress,
    private readonly onSentSeen: () => void,
  ) {
    super();
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.inner.dispatch(
      options,
      trackingHandler(handler as LegacyHandler, this.progress, this.onSentSeen),
    );
  }

  override close(): Promise<void> {
    return Promise.resolve();
  }

  override destroy(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Forwards every callback of undici's handler (`request()` gives a legacy-style handler) and
 * notes the moments that matter. No `onRequestStart`: that would switch undici to the new
 * handler interface, which has no `onRequestSent`.
 */
function trackingHandler(
  handler: LegacyHandler,
  progress: WriteProgress,
  onSentSeen: () => void,
): LegacyHandler {
  const tracked: LegacyHandler = {
    onConnect: (abort: (error?: Error) => void, context?: unknown) => {
      progress.connected = true;
      // undici passes a context object as a second argument; forward it untouched.
      const onConnect = handler.onConnect as
        | ((abort: (error?: Error) => void, context?: unknown) => void)
        | undefined;
      return onConnect?.call(handler, abort, context);
    },
    onRequestSent: () => {
      progress.sent = true;
      onSentSeen();
      return handler.onRequestSent?.();
    },
    onBodySent: (chunkSize, totalBytesSent) => handler.onBodySent?.(chunkSize, totalBytesSent),
    onResponseStarted: () => {
      progress.sent = true;
      return handler.onResponseStarted?.();
    },
    onHeaders: (statusCode, headers, resume, statusText) => {
      progress.sent = true;
      return handler.onHeaders?.(statusCode, headers, resume, statusText) ?? true;
    },
    onData: (chunk) => handler.onData?.(chunk) ?? true,
    onComplete: (trailers) => handler.onComplete?.(trailers),
    onError: (error) => {
      if (handler.onError) return handler.onError(error);
      throw error;
    },
    onUpgrade: (statusCode, headers, socket) => handler.onUpgrade?.(statusCode, headers, socket),
  };
  return tracked;
}

function errorCode(cause: unknown): string | undefined {
  let current: unknown = cause;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const record = current as { code?: unknown; cause?: unknown };
    if (typeof record.code === 'string') return record.code;
    current = record.cause;
  }
  return undefined;
}
