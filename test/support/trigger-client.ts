/** A small client for the trigger endpoint, that keeps every answer so tests can check them all. */
export interface TriggerAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  readonly json: unknown;
}

export interface TriggerCall {
  readonly method?: string;
  /** Sent as `Authorization: Bearer <token>`; none when left out. */
  readonly token?: string;
  /** Sent as is when a string, as JSON otherwise; no body when left out. */
  readonly body?: unknown;
  /** `application/json` when a body is sent and this is left out. */
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

export function createTriggerClient(baseUrl: () => string) {
  const answers: TriggerAnswer[] = [];
  return {
    /** Every answer so far, in order. */
    answers,
    async call(path: string, call: TriggerCall = {}): Promise<TriggerAnswer> {
      const headers: Record<string, string> = { ...call.headers };
      if (call.token !== undefined) headers.authorization = `Bearer ${call.token}`;
      let body: string | undefined;
      if (call.body !== undefined) {
        body = typeof call.body === "string" ? call.body : JSON.stringify(call.body);
        headers["content-type"] = call.contentType ?? "application/json";
      } else if (call.contentType !== undefined) headers["content-type"] = call.contentType;
      const response = await fetch(`${baseUrl()}${path}`, { method: call.method ?? (body === undefined ? "GET" : "POST"), headers, body });
      const text = await response.text();
      let json: unknown;
      try {
        json = JSON.parse(text) as unknown;
      } catch {
        json = undefined;
      }
      const answer: TriggerAnswer = { status: response.status, headers: response.headers, text, json };
      answers.push(answer);
      return answer;
    },
  };
}
