import { Fragment } from 'react';

/**
 * An id that may wrap only after its separators (`.`, `:`, `_`, `-`, `/`),
 * never in the middle of a word: `com.example.desk::desk` wraps as
 * `com.example.` / `desk::desk`, not `com.exa` / `mple…`.
 */
export function BreakableId({ id }: { id: string }) {
  const parts = id.split(/(?<=[.:_\-/])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 ? <wbr /> : null}
        </Fragment>
      ))}
    </>
  );
}
