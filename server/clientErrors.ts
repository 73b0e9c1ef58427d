// Requests Node's HTTP parser refuses before any route sees them (a request line or headers past
// its 16 KB limit, bytes that are not HTTP): answered in the error envelope like every other
// client mistake, instead of Node's bare status line with no body.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { traceparentFor } from '../catalogue/requestContext.ts';
import { ApiError, envelope } from '../core/errors.ts';
import { newId } from '../core/ids.ts';

function refusalFor(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') return new ApiError('request_headers_too_large', 'The request line and headers are larger than 16 KB; send long parameters in a body, or fewer of them.');
  return new ApiError('malformed_request', 'The request is not well-formed HTTP.');
}

export function answerClientErrors(server: Server) {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (error.code === 'ECONNRESET')) return socket.destroy();
    const refusal = refusalFor(error.code);
    const requestId = newId('req');
    const traceparent = traceparentFor(undefined);
    const body = JSON.stringify(envelope(refusal, requestId, traceparent));
    socket.end(
      [
        `HTTP/1.1 ${refusal.status} ${refusal.status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`,
        'Content-Type: application/json; charset=utf-8',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `Request-Id: ${requestId}`,
        `traceparent: ${traceparent}`,
        'X-Content-Type-Options: nosniff',
        'Cache-Control: no-store',
        'Connection: close',
        '',
        body,
      ].join('\r\n'),
    );
  });
}
