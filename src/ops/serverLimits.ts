/**
 * Limits of the web role's HTTP server, so slow or idle clients cannot hold it: headers and the
 * whole request must arrive in time (node:http answers 408 and closes), idle keep-alive
 * connections close, and open connections are capped (more are closed at once).
 */
import type { Server, ServerOptions } from 'node:http';
import type { HttpServerLimits } from '../config.ts';

/** Options for http.createServer (given to Bolt's receiver at start). */
export function serverOptions(limits: HttpServerLimits): ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often node:http looks for requests past their timeouts: often enough for the shortest one.
    connectionsCheckingInterval: Math.max(10, Math.min(30_000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/** What can only be set on a started server; the timeouts again, for a server made without {@link serverOptions}. */
export function limitConnections(server: Server, limits: HttpServerLimits): void {
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
}
