import { Fragment } from 'react';

/**
 * A long snake_case tool name (`mcp_chatos_notes_notes_delete_note`) that
 * wraps after an underscore instead of in the middle of a word.
 */
export function ToolName({ name }: { name: string }) {
  const parts = name.split('_');
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && (
            <>
              _<wbr />
            </>
          )}
        </Fragment>
      ))}
    </>
  );
}
