// The specification's error body, `{"error":{"code":<status>,"message":"..."}}`, in one place
// so that every error of every route looks the same.
export function errorBody(status: number, message: string): string {
  return JSON.stringify({ error: { code: status, message } });
}

export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(errorBody(status, message), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}
