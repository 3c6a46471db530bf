/**
 * Signing people in through an identity provider (OpenID Connect), for the HTTP face: discovery
 * at start, the authorization code flow with PKCE (S256), state and nonce through `openid-client`
 * (the ID token's signature, issuer, audience, expiry and nonce checked by it), and a provider's
 * access token given as `Authorization: Bearer` checked with `jose` against the provider's keys
 * (signature, issuer, audience, expiry, not-before), a verified one remembered by its hash for a
 * minute at most and never past its expiry. Who a person is comes from the provider's signed
 * claims alone: `person:<issuer host>/<subject>`, their name and e-mail, and their organisation
 * (a claim named by --oidc-org-claim, else the domain of a verified e-mail). Loaded only by a
 * keeper that signs people in: never on an agent's path. It never logs a token nor a code.
 */
import { createHash } from 'node:crypto';
import * as client from 'openid-client';
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from 'jose';
import { Refused, type Who } from '../store/index.js';
import { isLoopback } from './plan.js';

export interface SignInOptions {
  issuer: string;
  clientId: string;
  /** The client's secret (from a file or the environment, never the command line); none for a public client. */
  clientSecret?: string;
  /** A claim that names the person's organisation; else the domain of a verified e-mail. */
  orgClaim?: string;
  /** Only these organisations may sign in (none: any). */
  allowOrgs?: string[];
  /** The audience a provider's access token must name (the client id by default). */
  audience?: string;
  now?: () => number;
}

/** A person the provider vouched for, and their organisation; or why not, in a sentence. */
export type Vouched = { ok: true; who: Who; org: string; until: number; expires: number } | { ok: false; text: string; unreachable?: true };

export interface SignIn {
  /** The provider's issuer, as it says it. */
  issuer: string;
  /** The provider's name on the page: its host. */
  provider: string;
  /** Where the browser is sent to sign in: the provider's authorization endpoint with this sign-in's secrets. */
  authorizationUrl(redirectUri: string, state: string, nonce: string, verifier: string): Promise<URL>;
  /** Finishes a sign-in from the callback's URL (code, state): the ID token checked, the person found. */
  finish(callback: URL, expected: { state: string; nonce: string; verifier: string }): Promise<Vouched>;
  /** Where to sign out of the provider too, if it says (its end_session_endpoint). */
  endSession(returnTo: string): string | null;
  /** A provider's access token (not an agent's binder_ token): verified, and resolved to the person. */
  verifyAccess(token: string): Promise<Vouched>;
}

export const randomState = (): string => client.randomState();
export const randomNonce = (): string => client.randomNonce();
export const randomVerifier = (): string => client.randomPKCECodeVerifier();

/** How long a verified access token is remembered, at most (never past its expiry). */
const REMEMBER_MS = 60_000;
const REMEMBERED_MAX = 10_000;

/**
 * What never shows as itself: control bytes, line separators, bidi overrides, isolates and marks,
 * and invisible characters (two names would look one). Joiners (U+200C, U+200D) are kept: some
 * scripts' words and emoji need them.
 */
// eslint-disable-next-line no-control-regex
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

const text = (value: unknown, max: number): string | undefined => {
  if (typeof value !== 'string') return undefined;
  const clean = Array.from(value.replace(HIDDEN, ' ').trim()).slice(0, max).join('');
  return clean === '' ? undefined : clean;
};

/** The organisation a provider's claims give, lowercased; or why none. */
function orgOf(claims: JWTPayload, options: SignInOptions): { org: string } | { why: string } {
  if (options.orgClaim) {
    const named = claims[options.orgClaim];
    const value = Array.isArray(named) ? named[0] : named;
    const org = text(typeof value === 'number' ? String(value) : value, 100)?.toLowerCase();
    if (org) return { org };
  }
  const email = text(claims.email, 320);
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  const domain = email && verified ? /@([^@\s]+)$/.exec(email)?.[1]?.toLowerCase() : undefined;
  if (domain) return { org: domain };
  return {
    why: options.orgClaim
      ? `the provider said no organisation (no "${options.orgClaim}" claim) and no verified e-mail address`
      : 'the provider gave no verified e-mail address, whose domain would be the organisation',
  };
}

/** The person and organisation of a provider's signed claims, or the sentence that refuses them. */
export function vouched(claims: JWTPayload, issuerHost: string, options: SignInOptions, until: number): Vouched {
  // The subject is the person's identity: taken as sent or not at all. Cleaned (a control byte made
  // a space, then trimmed), two subjects could become one person.
  const sub = typeof claims.sub === 'string' && /^[\x21-\x7e]{1,255}$/.test(claims.sub) ? claims.sub : undefined;
  if (!sub) return { ok: false, text: 'The provider named no subject this binder can take (printable ASCII, at most 255 characters): nobody can be signed in.' };
  const email = text(claims.email, 320);
  const name = text(claims.name, 120) ?? text(claims.preferred_username, 120) ?? email ?? sub;
  const found = orgOf(claims, options);
  if ('why' in found) return { ok: false, text: `Not signed in: ${found.why}. A person who runs this binder sets --oidc-org-claim, or the provider gives a verified e-mail.` };
  const allowed = options.allowOrgs?.map((o) => o.trim().toLowerCase()).filter(Boolean) ?? [];
  if (allowed.length && !allowed.includes(found.org)) {
    return { ok: false, text: `Not signed in: the organisation "${found.org}" may not use this binder (it admits ${allowed.join(', ')}).` };
  }
  const expires = typeof claims.exp === 'number' ? claims.exp * 1000 : until;
  return { ok: true, who: { id: `person:${issuerHost}/${sub}`, kind: 'person', name, ...(email ? { email } : {}) }, org: found.org, until, expires };
}

const refusedStart = (issuer: string, why: string): Refused => new Refused(
  `binder cannot reach the identity provider ${issuer} (${why}): check --oidc-issuer and that the provider answers, then start again.`,
  `binder ne joint pas le fournisseur d'identité ${issuer} (${why}) : vérifiez --oidc-issuer et que le fournisseur répond, puis redémarrez.`,
);

/** Discovers the provider (its metadata and keys' address); a sentence, as Refused, if it cannot be reached. */
export async function discoverSignIn(options: SignInOptions): Promise<SignIn> {
  let issuerUrl: URL;
  try {
    issuerUrl = new URL(options.issuer);
  } catch {
    throw new Refused(`--oidc-issuer takes the provider's address (https://…); "${options.issuer.slice(0, 80)}" is not one.`,
      `--oidc-issuer prend l'adresse du fournisseur (https://…) ; « ${options.issuer.slice(0, 80)} » n'en est pas une.`);
  }
  // Plain http only to a provider on this machine (a test's, a developer's): anywhere else a token would cross in clear.
  const insecure = issuerUrl.protocol === 'http:' && isLoopback(issuerUrl.hostname.replace(/^\[|\]$/g, ''));
  if (issuerUrl.protocol !== 'https:' && !insecure) {
    throw new Refused('--oidc-issuer must be https:// (plain http only for a provider on this machine).',
      '--oidc-issuer doit être en https:// (http seulement pour un fournisseur sur cette machine).');
  }
  let config: client.Configuration;
  try {
    config = await client.discovery(issuerUrl, options.clientId, options.clientSecret, options.clientSecret ? undefined : client.None(), {
      execute: insecure ? [client.allowInsecureRequests] : [], timeout: 10,
    });
  } catch (error) {
    throw refusedStart(options.issuer, error instanceof Error ? error.message.slice(0, 200) : String(error));
  }
  const meta = config.serverMetadata();
  if (!meta.jwks_uri) throw refusedStart(options.issuer, 'it publishes no keys (jwks_uri)');
  const issuer = meta.issuer;
  const host = new URL(issuer).host;
  const remote = createRemoteJWKSet(new URL(meta.jwks_uri), { timeoutDuration: 5000 });
  // The keys could not be fetched (not yet, or refreshed): the provider's failure, never the token's.
  const keys = async (header: Parameters<typeof remote>[0], token: Parameters<typeof remote>[1]): Promise<CryptoKey> => {
    try {
      return await remote(header, token);
    } catch (error) {
      throw keysFailed(error) ? new KeysUnreachable(error) : error;
    }
  };
  const audience = options.audience ?? options.clientId;
  const now = options.now ?? Date.now;
  const remembered = new Map<string, Vouched & { ok: true }>();

  return {
    issuer,
    provider: host,
    async authorizationUrl(redirectUri, state, nonce, verifier) {
      return client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri, scope: 'openid email profile', response_type: 'code', state, nonce,
        code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
      });
    },
    async finish(callback, expected) {
      let tokens;
      try {
        tokens = await client.authorizationCodeGrant(config, callback, {
          pkceCodeVerifier: expected.verifier, expectedState: expected.state, expectedNonce: expected.nonce, idTokenExpected: true,
        });
      } catch (error) {
        const said = error instanceof Error ? error.message.slice(0, 160) : 'no reason given';
        return { ok: false, text: `Not signed in: the provider's answer was refused (${said}). Sign in again.` };
      }
      const claims = tokens.claims();
      if (!claims) return { ok: false, text: 'Not signed in: the provider sent no ID token. Sign in again.' };
      return vouched(claims as JWTPayload, host, options, claims.exp * 1000);
    },
    endSession(returnTo) {
      if (!meta.end_session_endpoint) return null;
      return client.buildEndSessionUrl(config, { post_logout_redirect_uri: returnTo, client_id: options.clientId }).href;
    },
    async verifyAccess(token) {
      const hash = createHash('sha256').update(token, 'utf8').digest('base64url');
      const at = now();
      const known = remembered.get(hash);
      if (known && known.until > at) return known;
      if (known) remembered.delete(hash);
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, { issuer, audience, currentDate: new Date(at), requiredClaims: ['exp', 'sub'] }));
      } catch (error) {
        if (error instanceof KeysUnreachable) return { ok: false, text: UNREACHABLE, unreachable: true };
        return { ok: false, text: refusedToken(error, issuer, audience) };
      }
      const result = vouched(payload, host, options, Math.min(at + REMEMBER_MS, (payload.exp ?? 0) * 1000));
      if (result.ok) {
        if (remembered.size >= REMEMBERED_MAX) remembered.clear();
        remembered.set(hash, result);
      }
      return result;
    },
  };
}

const UNREACHABLE = 'This token could not be checked against the provider\'s keys now (the provider cannot be reached): ask again in a moment.';

/** The provider's keys could not be had: the token is neither good nor bad yet. */
class KeysUnreachable extends Error {
  constructor(cause: unknown) {
    super('the provider\'s keys could not be fetched', { cause });
    this.name = 'KeysUnreachable';
  }
}

/** An error of fetching the keys (the network, a timeout, an answer not 200 or not JSON), not of a key matched. */
const keysFailed = (error: unknown): boolean => error instanceof errors.JWKSTimeout || error instanceof TypeError
  || (error instanceof errors.JOSEError && error.code === errors.JOSEError.code);

/** Why a provider's token is refused, in a sentence (never the token). */
function refusedToken(error: unknown, issuer: string, audience: string): string {
  const get = 'sign in again to get a new one';
  if (error instanceof errors.JWTExpired) return `This token expired: ${get}.`;
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return `This token is not from ${issuer}, the provider this binder signs people in with.`;
    if (error.claim === 'aud') return `This token was made for another audience, not "${audience}": ask the provider for one made for this binder.`;
    if (error.claim === 'nbf') return 'This token is not valid yet (its not-before is to come).';
    return `This token is refused (its "${error.claim}" claim): ${get}.`;
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return `This token is not signed by ${issuer}'s keys: it is refused.`;
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid || error instanceof errors.JOSEError) {
    return 'This token is neither an agent\'s token (binder_…) nor a token the provider signed: it is refused.';
  }
  return 'This token could not be checked against the provider\'s keys now: ask again in a moment.';
}
