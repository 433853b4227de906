import { DeleteOutlined, LoginOutlined, PlusOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { Button, Col, Form, Input, InputNumber, Radio, Row, Select, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { McpServerEntryView, McpTestResult } from '../../../../src/shared/mcpAdmin';
import { api, toApiError, type ApiError } from '../../api/client';
import { draftFromView, EMPTY_DRAFT, formFieldOf, inputOf, type ServerDraft } from './serverDraft';
import { TestResultView } from './TestResultView';
import { useSignIn } from './useSignIn';
import { ActionErrorAlert } from '../../shell/ActionErrorAlert';
import '../../i18n/load/mcpAdmin';
import '../../i18n/load/mcpAdminEditor';
import '../../i18n/load/signIn';

export interface ServerEditorProps {
  /** The server to edit; undefined to add one. */
  server?: McpServerEntryView;
  /** Where a new server starts from (a template). */
  initial?: ServerDraft;
  onCancel(): void;
  onSaved(server: McpServerEntryView): void;
}

/** One list of env variables or headers: a name, where its value comes from, the value. */
function ValueRows({ list, testPrefix, storedKeys }: { list: 'env' | 'headers'; testPrefix: string; /** Names whose value is in the key store already (edit). */ storedKeys: ReadonlySet<string> }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<ServerDraft>();
  const rows = Form.useWatch(list, form) ?? [];
  return (
    <Form.List name={list}>
      {(fields, { add, remove }) => (
        <>
          {fields.map((field, index) => {
            const kind = rows[index]?.kind ?? 'text';
            const stored = storedKeys.has(rows[index]?.key ?? '');
            return (
              <Row gutter={8} key={field.key} align="top" wrap={false}>
                <Col flex="180px">
                  <Form.Item name={[field.name, 'key']} rules={[{ required: true, message: t('mcpAdmin.editor.required') }]}>
                    <Input placeholder={list === 'env' ? 'API_TOKEN' : 'Authorization'} data-testid={`${testPrefix}-key-${index}`} />
                  </Form.Item>
                </Col>
                <Col flex="170px">
                  <Form.Item name={[field.name, 'kind']}>
                    <Select data-testid={`${testPrefix}-kind-${index}`} options={(['text', 'env', 'secret'] as const).map((k) => ({ value: k, label: t(`mcpAdmin.value.${k}`) }))} />
                  </Form.Item>
                </Col>
                <Col flex="auto">
                  {kind === 'text' ? (
                    <Form.Item name={[field.name, 'text']}>
                      <Input data-testid={`${testPrefix}-value-${index}`} />
                    </Form.Item>
                  ) : kind === 'env' ? (
                    <Form.Item name={[field.name, 'name']} rules={[{ required: true, message: t('mcpAdmin.editor.required') }]}>
                      <Input placeholder="HOST_VARIABLE" data-testid={`${testPrefix}-value-${index}`} />
                    </Form.Item>
                  ) : (
                    <Form.Item
                      name={[field.name, 'secret']}
                      extra={stored ? t('mcpAdmin.value.storedKeep') : t('mcpAdmin.value.storedExplain')}
                      rules={stored ? [] : [{ required: true, message: t('mcpAdmin.editor.required') }]}
                    >
                      <Input.Password visibilityToggle={false} autoComplete="off" placeholder={stored ? '••••••••' : ''} data-testid={`${testPrefix}-value-${index}`} />
                    </Form.Item>
                  )}
                </Col>
                <Col flex="32px">
                  <Button type="text" icon={<DeleteOutlined />} aria-label={t('mcpAdmin.editor.removeRow')} onClick={() => remove(field.name)} data-testid={`${testPrefix}-remove-${index}`} />
                </Col>
              </Row>
            );
          })}
          <Button icon={<PlusOutlined />} onClick={() => add({ key: '', kind: 'text', text: '' })} data-testid={`${testPrefix}-add`} style={{ marginBottom: 16 }}>
            {t(list === 'env' ? 'mcpAdmin.editor.addEnv' : 'mcpAdmin.editor.addHeader')}
          </Button>
        </>
      )}
    </Form.List>
  );
}

const storedKeysOf = (values: McpServerEntryView['env'] | undefined): ReadonlySet<string> => new Set((values ?? []).filter((v) => v.value.kind === 'secret' && v.value.set).map((v) => v.key));

/**
 * Adds or edits a server of mcp.yaml: a program (stdio: command, arguments,
 * environment, working folder) or a streamable HTTP endpoint (url,
 * headers). Values may be written out, copied from a host variable, or kept
 * in the key store (typed into a password field, never shown back).
 * "Test connection" starts the form as it is, before it is saved.
 */
export function ServerEditor({ server, initial, onCancel, onSaved }: ServerEditorProps) {
  const { t } = useTranslation();
  const creating = !server;
  const [form] = Form.useForm<ServerDraft>();
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [error, setError] = useState<ApiError>();
  const [tested, setTested] = useState<McpTestResult>();
  const transport = Form.useWatch('transport', form) ?? server?.transport ?? initial?.transport ?? 'stdio';
  // Which Node runs it is a choice only for a bare `node` command (a path names its own binary).
  const command = Form.useWatch('command', form) ?? server?.command ?? initial?.command ?? '';
  const runsNode = /^node(\.exe)?$/i.test(command.trim());

  const clearErrors = () => form.setFields((['name', 'command', 'args', 'cwd', 'nodeRuntime', 'url', 'timeoutMs'] as const).map((name) => ({ name, errors: [] })));

  /** Puts the host's field errors next to their fields; what has no field shows above the buttons. */
  const placeErrors = (apiError: ApiError) => {
    const draft = form.getFieldsValue(true) as ServerDraft;
    const placed = (apiError.fields ?? []).flatMap((f) => {
      const name = formFieldOf(f.path, draft);
      return name ? [{ name, errors: [f.hint ? `${f.message} — ${f.hint}` : f.message] }] : [];
    });
    form.setFields(placed as Parameters<typeof form.setFields>[0]);
    if (placed.length < (apiError.fields?.length ?? 0) || !apiError.fields?.length) setError(apiError);
  };

  /** Writes the form to mcp.yaml; the saved server, or undefined when refused (the errors shown). */
  const write = async (draft: ServerDraft): Promise<McpServerEntryView | undefined> => {
    setSaving(true);
    setError(undefined);
    clearErrors();
    try {
      const input = inputOf(draft);
      const saved = server
        ? await api.call('mcpServers.update', { name: server.name, server: input as Record<string, unknown> })
        : await api.call('mcpServers.add', { server: input as Record<string, unknown> });
      return saved.server;
    } catch (caught) {
      placeErrors(toApiError(caught));
      return undefined;
    } finally {
      setSaving(false);
    }
  };
  const save = async (draft: ServerDraft) => {
    const saved = await write(draft);
    if (saved) onSaved(saved);
  };

  // Test said the server wants sign-in: saved first (the host signs in to a server of mcp.yaml), then signed in, and the form closes.
  const signing = useSignIn((signedIn) => onSaved(signedIn));
  const saveAndSignIn = () => {
    const draft = form.getFieldsValue(true) as ServerDraft;
    void signing.signIn((draft.name ?? '').trim(), async () => {
      await form.validateFields();
      return (await write(draft)) !== undefined;
    });
  };

  const test = async () => {
    setTesting(true);
    setTested(undefined);
    setError(undefined);
    try {
      const draft = form.getFieldsValue(true) as ServerDraft;
      setTested(await api.call('mcpServers.test', { server: inputOf(draft) as Record<string, unknown> }));
    } catch (caught) {
      placeErrors(toApiError(caught));
    } finally {
      setTesting(false);
    }
  };

  const required = [{ required: true, message: t('mcpAdmin.editor.required') }];
  return (
    <Form<ServerDraft>
      form={form}
      layout="vertical"
      requiredMark={false}
      initialValues={server ? draftFromView(server) : (initial ?? EMPTY_DRAFT)}
      onFinish={(draft) => void save(draft)}
      onValuesChange={() => setTested(undefined)}
      data-testid="mcp-form"
    >
      <Row gutter={16}>
        <Col xs={24} md={10}>
          <Form.Item name="name" label={t('mcpAdmin.editor.name')} extra={creating ? t('mcpAdmin.editor.nameHint') : undefined} rules={required}>
            <Input disabled={!creating} placeholder="github" data-testid="mcp-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={14}>
          <Form.Item name="transport" label={t('mcpAdmin.editor.transport')}>
            <Radio.Group
              optionType="button"
              data-testid="mcp-transport"
              options={[
                { value: 'stdio', label: t('mcpAdmin.transport.stdio') },
                { value: 'streamable_http', label: t('mcpAdmin.transport.streamable_http') },
              ]}
            />
          </Form.Item>
        </Col>
      </Row>
      {transport === 'stdio' ? (
        <>
          <Form.Item name="command" label={t('mcpAdmin.editor.command')} extra={t('mcpAdmin.editor.commandHint')} rules={required}>
            <Input placeholder="npx" data-testid="mcp-command" />
          </Form.Item>
          <Form.Item name="args" label={t('mcpAdmin.editor.args')} extra={t('mcpAdmin.editor.argsHint')}>
            <Input.TextArea autoSize={{ minRows: 2, maxRows: 8 }} placeholder={'-y\n@modelcontextprotocol/server-everything'} data-testid="mcp-args" />
          </Form.Item>
          <Typography.Text strong>{t('mcpAdmin.editor.env')}</Typography.Text>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {t('mcpAdmin.editor.envHint')}
          </Typography.Paragraph>
          <ValueRows list="env" testPrefix="mcp-env" storedKeys={storedKeysOf(server?.env)} />
          <Form.Item name="cwd" label={t('mcpAdmin.editor.cwd')} extra={t('mcpAdmin.editor.cwdHint')}>
            <Input placeholder="/home/me/project" data-testid="mcp-cwd" />
          </Form.Item>
          {runsNode && (
            <Form.Item name="nodeRuntime" label={t('mcpAdmin.editor.nodeRuntime')} extra={t('mcpAdmin.editor.nodeRuntimeHint')}>
              <Select
                data-testid="mcp-node-runtime"
                options={(['default', 'auto', 'system', 'bundled'] as const).map((value) => ({ value, label: t(`mcpAdmin.editor.nodeRuntimeOption.${value}`) }))}
              />
            </Form.Item>
          )}
        </>
      ) : (
        <>
          <Form.Item name="url" label={t('mcpAdmin.editor.url')} extra={t('mcpAdmin.editor.urlHint')} rules={required}>
            <Input placeholder="http://127.0.0.1:3000/mcp" data-testid="mcp-url" />
          </Form.Item>
          <Typography.Text strong>{t('mcpAdmin.editor.headers')}</Typography.Text>
          <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
            {t('mcpAdmin.editor.headersHint')}
          </Typography.Paragraph>
          <ValueRows list="headers" testPrefix="mcp-header" storedKeys={storedKeysOf(server?.headers)} />
        </>
      )}
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="timeoutMs" label={t('mcpAdmin.editor.timeout')} extra={t('mcpAdmin.editor.timeoutHint')}>
            <InputNumber min={1} step={1000} style={{ width: '100%' }} data-testid="mcp-timeout" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="disabled" label={t('mcpAdmin.editor.disabled')} valuePropName="checked" extra={t('mcpAdmin.editor.disabledHint')}>
            <Switch data-testid="mcp-disabled" />
          </Form.Item>
        </Col>
      </Row>
      {server?.otherKeys.length ? <Typography.Paragraph type="secondary">{t('mcpAdmin.editor.otherKeys', { keys: server.otherKeys.join(', ') })}</Typography.Paragraph> : null}
      {tested ? (
        <div style={{ marginBottom: 16 }}>
          <TestResultView
            result={tested}
            signIn={
              <Button type="primary" icon={<LoginOutlined />} loading={signing.busy === 'signIn'} onClick={saveAndSignIn} data-testid="mcp-save-signin">
                {t(signing.busy === 'signIn' ? 'signIn.waiting' : 'mcpAdmin.test.saveSignIn')}
              </Button>
            }
          />
        </div>
      ) : null}
      {error ? <ActionErrorAlert error={error} testId="mcp-save-error" style={{ marginBottom: 16 }} /> : null}
      <Space wrap>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="mcp-save">
          {t('mcpAdmin.editor.save')}
        </Button>
        <Button icon={<ThunderboltOutlined />} loading={testing} onClick={() => void test()} data-testid="mcp-test">
          {t('mcpAdmin.test.button')}
        </Button>
        <Button onClick={onCancel}>{t('common.cancel')}</Button>
      </Space>
    </Form>
  );
}
