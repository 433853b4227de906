import { ApiOutlined } from '@ant-design/icons';
import type { AppContext } from '../../../../src/shared/chat';
import { Disclosure } from './Disclosure';
import { useKeptOpen, useRowWords } from './rowContext';
import '../../i18n/load/mcpApps';

/**
 * What apps' views told the model with this message (docs/rules/app-messages.md#context-from-an-app):
 * one small tag per app, closed, that opens to the text the model got.
 */
export function AppContextTags({ messageId, contexts }: { messageId: string; contexts: readonly AppContext[] }) {
  return (
    <div className="msg-app-contexts">
      {contexts.map((context) => (
        <AppContextTag key={`${context.from.kind}:${context.from.id}`} openKey={`${messageId}:context:${context.from.kind}:${context.from.id}`} context={context} />
      ))}
    </div>
  );
}

function AppContextTag({ openKey, context }: { openKey: string; context: AppContext }) {
  const { t } = useRowWords();
  const [open, setOpen] = useKeptOpen(openKey);
  return (
    <div data-testid="message-app-context" data-source={context.from.id}>
      <Disclosure
        ghost
        open={open}
        onToggle={setOpen}
        className="msg-app-context"
        toggleTestId="message-app-context-toggle"
        label={
          <span>
            <ApiOutlined /> {t('mcpApps.contextFrom', { app: context.from.name })}
          </span>
        }
      >
        <div className="msg-app-context-text" data-testid="message-app-context-text">
          {context.text}
        </div>
      </Disclosure>
    </div>
  );
}
