// Requests Node refuses before there is a request to hand us (issue 11, item 12): a request line
// and headers over the 16 KB Node parses (431), anything its parser rejects (400), a client too
// slow to send its request within headersTimeout or requestTimeout (408). Node's own answer is
// a bare status line; this writes the API's error body and the usual headers instead, straight
// onto the socket (there is no ServerResponse at that point), then closes the connection.
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorBody } from '../pipeline/responses.ts';

interface ClientError extends Error {
  code?: string;
  /** llhttp's reason for a parse error, such as "Invalid method encountered". */
  reason?: string;
}

export interface ClientErrorAnswer {
  status: number;
  message: string;
}

/** The status and message for an error of Node's HTTP parser or timeouts; undefined when the client is gone. */
export function describeClientError(error: ClientError, maxHeaderSize: number): ClientErrorAnswer | undefined {
  switch (error.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return undefined;
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: `The request line and headers are larger than ${maxHeaderSize} bytes` };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, message: 'The request was not received in time' };
    default:
      return { status: 400, message: `Malformed HTTP request${error.reason ? `: ${error.reason}` : ''}` };
  }
}

/**
 * Answers a client error on `socket` with `headers` (those every response carries) and closes
 * it; returns the answer (for logs and metrics), or undefined when nothing could be said: the
 * client is gone, or the response in progress on it (`inProgress`) was already under way (as
 * Node does, the connection is then only closed, so the client never reads a second answer).
 */
export function answerClientError(
  error: ClientError,
  socket: Duplex,
  inProgress: { headersSent: boolean } | undefined,
  maxHeaderSize: number,
  headers: () => Record<string, string>,
): ClientErrorAnswer | undefined {
  const answer = describeClientError(error, maxHeaderSize);
  if (!answer || !socket.writable || inProgress?.headersSent) {
    socket.destroy();
    return undefined;
  }
  const body = errorBody(answer.status, answer.message);
  const head = [`HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}`];
  for (const [name, value] of Object.entries(headers())) head.push(`${name}: ${value}`);
  head.push('content-type: application/json; charset=utf-8', `content-length: ${Buffer.byteLength(body)}`, 'connection: close');
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => socket.destroy());
  // A client that does not read must not keep the socket: it goes after a second whatever happens.
  setTimeout(() => socket.destroy(), 1_000).unref();
  return answer;
}
