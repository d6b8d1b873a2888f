// The specification's error body, `{"error":{"code":<status>,"message":"..."}}`, in one place
// so that every error of every route looks the same.
export function errorBody(status: number, message: string): string {
  return JSON.stringify({ error: { code: status, message } });
}
