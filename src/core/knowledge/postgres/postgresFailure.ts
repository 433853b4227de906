import { KnowledgeError } from '../knowledgeError.js';

/** Socket errors of a server that is not there (or not reachable from here). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE']);
/** SQLSTATE classes and codes (PostgreSQL, Appendix A) this maps. */
const REFUSED = new Set(['28000', '28P01', '42501', '3D000', '0A000', '58P01']);
const GONE = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08003', '08006', '08001', '08004']);
const NOT_OURS = new Set(['42P01', '42703', '42804', '42883', '22P02', '42P07']);

/** The wire-level refusal of a server that is not PostgreSQL (pg-protocol's words for a message it cannot read). */
const NOT_POSTGRES = /received invalid response|unexpected message|invalid message format|not a postgres/i;
const DROPPED = /connection terminated|timeout|server closed the connection|Connection terminated/i;

/**
 * A failure of a base's PostgreSQL engine as a KnowledgeError naming the
 * base, the server (its URL without a password) and the fix. A change runs
 * in one transaction on the server, so whatever broke it, the server holds
 * what it held before: the message says nothing was changed, and other
 * bases (other engines, other connections) are not touched.
 */
export function postgresFailure(base: string, where: string, error: unknown): KnowledgeError {
  if (error instanceof KnowledgeError) return error;
  const e = error as { code?: string; message?: string; errors?: { code?: string }[] };
  const why = e.message || e.errors?.map((x) => x.code).join(', ') || String(error);
  // A Node AggregateError (every address refused) carries the codes in `errors`.
  const socketCode = e.code ?? e.errors?.[0]?.code;
  const nothing = 'nothing was changed';
  if ((socketCode && (UNREACHABLE.has(socketCode) || GONE.has(socketCode))) || DROPPED.test(why))
    return new KnowledgeError(
      'KB_ENGINE_DOWN',
      `knowledge base "${base}": its PostgreSQL engine at ${where} cannot be reached (${why}); ${nothing}`,
      `start that server or check the network to it, then try again; if it moved, run chatos kb delete ${base} (its data stays on the server) and create it again with the new --url`,
    );
  if (NOT_POSTGRES.test(why))
    return new KnowledgeError(
      'KB_ENGINE_INVALID',
      `knowledge base "${base}": the server at ${where} does not answer as PostgreSQL (${why}); ${nothing}`,
      'check the URL: it must name a PostgreSQL server with pgvector (postgres://user@host:5432/database)',
    );
  if (socketCode === '22000' && /dimensions/.test(why))
    return new KnowledgeError(
      'KB_INVALID',
      `knowledge base "${base}": the vectors on ${where} are of another dimension than this change's (${why}); ${nothing}`,
      `re-embed the base with one model: chatos kb reembed ${base}`,
    );
  if (socketCode === '53100')
    return new KnowledgeError(
      'KB_DISK_FULL',
      `knowledge base "${base}": the disk of the PostgreSQL server at ${where} is full (${why}); ${nothing}`,
      'ask whoever runs that server to free space, then try again',
    );
  if (socketCode && REFUSED.has(socketCode))
    return new KnowledgeError(
      'KB_ENGINE_REFUSED',
      `knowledge base "${base}": the PostgreSQL server at ${where} refused (${why}); ${nothing}`,
      /vector/.test(why)
        ? 'install the pgvector extension on that server (or ask its admin to run CREATE EXTENSION vector in that database)'
        : `check the user in the URL, its rights on the database, and the password kept for this base (create the base again with --password-stdin)`,
    );
  if (socketCode && NOT_OURS.has(socketCode))
    return new KnowledgeError(
      'KB_ENGINE_INVALID',
      `knowledge base "${base}": the tables on ${where} are not a ChatOS knowledge base's (${why}); ${nothing}`,
      'choose another --collection for this base, or ask whoever made those tables; ChatOS does not change tables it did not make',
    );
  return new KnowledgeError(
    'KB_ENGINE_INVALID',
    `knowledge base "${base}": its PostgreSQL engine at ${where} failed (${why}); ${nothing}`,
    'if it persists, ask whoever runs that server to look at its log',
  );
}
