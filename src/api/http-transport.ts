/** Live mode: the contract over fetch to VITE_API_BASE. */
import { apiBase } from './config';
import { CLIENT_CODES, type Transport, type TransportRequest, type TransportResponse } from './transport';
import { ApiError } from './api-error';

function encodeBody(body: unknown): BodyInit | undefined {
  if (body === undefined) return undefined;
  if (typeof FormData !== 'undefined' && body instanceof FormData) return body;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

export function createHttpTransport(base: () => string = apiBase): Transport {
  return {
    async request({
      method,
      path,
      headers = {},
      body,
      signal,
    }: TransportRequest): Promise<TransportResponse> {
      const encoded = method === 'GET' ? undefined : encodeBody(body);
      const sendHeaders: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) if (v !== undefined) sendHeaders[k] = v;
      // Multipart bodies set their own boundary header.
      if (encoded !== undefined && !(encoded instanceof FormData))
        sendHeaders['Content-Type'] = 'application/json';
      let response: Response;
      try {
        response = await fetch(`${base()}${path}`, { method, headers: sendHeaders, body: encoded, signal });
      } catch (err) {
        if (signal?.aborted) throw new ApiError(CLIENT_CODES.timeout, '', null);
        const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
        throw new ApiError(offline ? CLIENT_CODES.offline : CLIENT_CODES.network, '', null, { cause: err });
      }
      // A non-JSON answer (proxy error page) has no envelope: the client then uses the HTTP status.
      const parsed: unknown = await response.json().catch(() => null);
      return { status: response.status, body: parsed as TransportResponse['body'] };
    },
  };
}
