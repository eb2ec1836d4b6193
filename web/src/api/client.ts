/**
 * The typed client: a call names its path as the server's OpenAPI document spells it, and the
 * generated `paths` (schema.d.ts) give what it sends and what it answers. A path the server does not
 * serve, a body of the wrong shape or a misread answer fails the typecheck instead of a click.
 * Everything else (envelope, errors, token, timeout, `silent`) is `request`'s.
 */
import type { paths } from './schema';
import { request, type RequestConfig } from './request';

type Method = 'get' | 'post';
type Options = Omit<RequestConfig, 'url' | 'method' | 'data' | 'params'>;

/** The paths that answer `M`. */
export type PathOf<M extends Method> = {
  [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never;
}[keyof paths];

type Op<P extends keyof paths, M extends Method> = paths[P] extends { [K in M]: infer O } ? O : never;

type Json<C> = C extends { content: { 'application/json': infer B } } ? B : never;

/** What the call sends: its JSON body when it declares one, else its query (the server reads both). */
export type InputOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends { requestBody: infer R }
    ? Json<R>
    : Op<P, M> extends { requestBody?: infer R }
      ? [Json<NonNullable<R>>] extends [never]
        ? QueryOf<Op<P, M>>
        : Json<NonNullable<R>> | undefined
      : QueryOf<Op<P, M>>;

/**
 * The declared query, open to the list parameters (page, pageSize, sorting, filters) every list takes
 * without declaring them; a call that declares nothing takes any parameters.
 */
type QueryOf<O> = O extends { parameters: { query?: infer Q } }
  ? [NonNullable<Q>] extends [never]
    ? Record<string, unknown> | undefined
    : (NonNullable<Q> & Record<string, unknown>) | undefined
  : Record<string, unknown> | undefined;

/** The body a POST call takes, as the document declares it. */
export type Body<P extends PathOf<'post'>> = NonNullable<InputOf<P, 'post'>>;

/** The `data` of the call's success envelope. */
export type DataOf<P extends keyof paths, M extends Method> =
  Op<P, M> extends { responses: { 200: infer R } } ? (Json<R> extends { data: infer D } ? D : never) : never;

/** The input is required when the call's body is. */
type Args<I> = undefined extends I ? [input?: I, options?: Options] : [input: I, options?: Options];

export const api = {
  /** GET: the input goes to the query string. */
  get: <P extends PathOf<'get'>>(path: P, ...[input, options]: Args<InputOf<P, 'get'>>) =>
    request<DataOf<P, 'get'>>({ ...options, url: path, method: 'GET', params: input as Record<string, unknown> | undefined }),
  /** POST: the input is the JSON body. */
  post: <P extends PathOf<'post'>>(path: P, ...[input, options]: Args<InputOf<P, 'post'>>) =>
    request<DataOf<P, 'post'>>({ ...options, url: path, method: 'POST', data: input }),
};

/**
 * An answer the console reads narrower than the document declares (a literal union for a string the
 * server does not declare as an enum yet): the console's type must still be one the document allows.
 */
export const narrowed = <T extends D, D>(answer: Promise<D>): Promise<T> => answer as Promise<T>;

/**
 * An answer the console reads through its own type where the document does not match it yet (a field
 * it declares differently, not only narrower): the path and the input are checked, the answer is not.
 */
export const unchecked = <T>(answer: Promise<unknown>): Promise<T> => answer as Promise<T>;
