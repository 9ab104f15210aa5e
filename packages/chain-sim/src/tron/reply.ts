/** A handler's answer: a JSON body (int64 values may be bigint) and the HTTP status. */
export interface Reply {
  status: number;
  body: unknown;
}

/** An endpoint: request parameters (query string and JSON body) and whether addresses are Base58Check. */
export type Handler = (params: Record<string, unknown>, visible: boolean) => Promise<Reply>;

export const ok = (body: unknown): Reply => ({ status: 200, body });

/** The node's answer to a request it cannot serve: HTTP 200 with `{"Error": "class <exception> : <message>"}`. */
export const nodeError = (exception: string, message: string): Reply =>
  ok({ Error: `class ${exception} : ${message}` });
