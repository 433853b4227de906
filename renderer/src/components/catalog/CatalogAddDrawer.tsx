import { App as AntApp, Button, Drawer, Form, Input, Radio, Select, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpServerEntryView } from '../../../../src/shared/mcpAdmin';
import type { CatalogEntryView, CatalogInputView } from '../../../../src/shared/mcpCatalog';
import '../../i18n/load/catalog';
import { api, errorLine } from '../../api/client';
import { CatalogBundleInstall } from './CatalogBundleInstall';
import { CatalogOptionText } from './CatalogEntryCard';
import { CatalogSignIn } from './CatalogSignIn';

function InputField({ input, value, onChange }: { input: CatalogInputView; value: string; onChange: (value: string) => void }) {
  const { t } = useTranslation();
  const testId = `catalog-value-${input.name}`;
  const field = input.choices ? (
    <Select value={value || undefined} onChange={onChange} options={input.choices.map((c) => ({ value: c, label: c }))} data-testid={testId} />
  ) : input.secret ? (
    <Input.Password value={value} onChange={(e) => onChange(e.target.value)} placeholder={input.placeholder} autoComplete="off" data-testid={testId} />
  ) : (
    <Input value={value} onChange={(e) => onChange(e.target.value)} placeholder={input.placeholder ?? input.default} data-testid={testId} />
  );
  return (
    <Form.Item
      required={input.required}
      label={
        <Space size={4}>
          <span>{input.name}</span>
          <Tag>{input.kind}</Tag>
          {input.secret ? <Tag color="gold">{t('catalog.secret')}</Tag> : null}
        </Space>
      }
      extra={[input.description, input.note].filter(Boolean).join(' · ') || undefined}
    >
      {field}
    </Form.Item>
  );
}

/**
 * Adding one entry: pick a way to run it (the command or URL shown as it
 * will run), give the values it asks for (secret ones go to the key store),
 * and name it. The core checks everything again (host.catalog.add) and adds
 * it as the MCP servers page's own add does; a remote that asks for sign-in
 * is then offered it here.
 */
export function CatalogAddDrawer({ entry, onClose }: { entry: CatalogEntryView; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const installable = entry.options.filter((o) => o.installable);
  const [index, setIndex] = useState(installable[0]?.index ?? 0);
  const [serverName, setServerName] = useState(entry.suggestedName);
  const [values, setValues] = useState(() => new Map<string, string>());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  // Added, and the remote asked for sign-in when it was: the drawer offers it before it closes.
  const [toSignIn, setToSignIn] = useState<McpServerEntryView>();
  const option = entry.options.find((o) => o.index === index);

  const add = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const given = [...values].filter(([name, value]) => value !== '' && option?.inputs.some((i) => i.name === name)).map(([name, value]) => ({ name, value }));
      const { server } = await api.call('catalog.add', { request: { name: entry.name, option: index, serverName, values: given } });
      void message.success(t('catalog.added', { name: server.name }));
      if (server.signIn?.kind === 'needed') setToSignIn(server);
      else onClose();
    } catch (e) {
      setError(errorLine(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Drawer open onClose={onClose} size="large" title={t('catalog.addTitle', { name: entry.title ?? entry.name })} data-testid="catalog-add-drawer">
      <Form layout="vertical">
        <Form.Item label={t('catalog.ways')}>
          <Radio.Group value={index} onChange={(e) => setIndex(e.target.value as number)}>
            <Space orientation="vertical">
              {entry.options.map((o) => (
                <Radio key={o.index} value={o.index} disabled={!o.installable} data-testid={`catalog-option-${o.index}`}>
                  <Tag>{o.label}</Tag>
                  <CatalogOptionText option={o} />
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        {option?.bundle ? <CatalogBundleInstall key={option.index} entry={entry} option={option} onDone={onClose} /> : null}
        {option?.inputs.length ? <Typography.Title level={5}>{t('catalog.values')}</Typography.Title> : null}
        {option?.inputs.map((input) => (
          <InputField key={input.name} input={input} value={values.get(input.name) ?? ''} onChange={(value) => setValues((old) => new Map(old).set(input.name, value))} />
        ))}
        {toSignIn ? <CatalogSignIn server={toSignIn} onDone={onClose} /> : null}
        {option?.bundle || toSignIn ? null : (
          <>
            <Form.Item label={t('catalog.serverName')} required>
              <Input value={serverName} onChange={(e) => setServerName(e.target.value)} data-testid="catalog-server-name" />
            </Form.Item>
            {error ? (
              <Typography.Paragraph type="danger" data-testid="catalog-add-error">
                {error}
              </Typography.Paragraph>
            ) : null}
            <Button type="primary" loading={busy} disabled={!option?.installable} onClick={() => void add()} data-testid="catalog-add-confirm">
              {t('catalog.addConfirm')}
            </Button>
          </>
        )}
      </Form>
    </Drawer>
  );
}
