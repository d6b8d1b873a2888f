// The specification's error body, `{"error":{"code":<status>,"message":"..."}}`, in one place
// so that every error of every route looks the same.
// Messages can quote what a client sent (a path, a parameter); `<` and `>` are written as JSON
// escapes, so the body parses the same but never carries markup a sniffing browser might run.
export function errorBody(status: number, message: string): string {
  return JSON.stringify({ error: { code: status, message } }).replace(/[<>]/g, (char) => (char === '<' ? '\\u003c' : '\\u003e'));
}
