import { ImportOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, App as AntApp, Button, Checkbox, Input, Select, Space, Table, Tag, Typography, Upload } from 'antd';
import { type HTMLAttributes, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConflictChoice, ImportEntry, ImportPlan } from '../../../../src/shared/mcpAdmin';
import { api, errorLine } from '../../api/client';
import { ProblemList } from '../ProblemList';
import { ImportRunDetails } from './ImportRunDetails';
import '../../i18n/load/mcpAdminEditor';

const STATUS_COLOR: Record<ImportEntry['status'], string> = { add: 'green', conflict: 'orange', refused: 'red' };

/**
 * Import from the configs users already have (Claude Desktop, VS Code,
 * Cursor, Cline): pick the file or paste it, see the plan (what is added,
 * what conflicts with mcp.yaml and what to do about it, what cannot be
 * imported and why), then apply it. The file is read here and sent as
 * text; the host parses it again when applying.
 */
export function ImportPanel({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const { message } = AntApp.useApp();
  const [text, setText] = useState('');
  const [fileName, setFileName] = useState<string>();
  const [storeSecrets, setStoreSecrets] = useState(true);
  const [plan, setPlan] = useState<ImportPlan>();
  const [choices, setChoices] = useState<ReadonlyMap<string, ConflictChoice>>(new Map());
  const [busy, setBusy] = useState(false);

  const showPlan = async (body = text, name = fileName) => {
    setBusy(true);
    try {
      setPlan(await api.call('mcpServers.importPlan', { text: body, ...(name ? { fileName: name } : {}), storeSecrets }));
      setChoices(new Map());
    } catch (e) {
      void message.error(errorLine(e));
    } finally {
      setBusy(false);
    }
  };

  const apply = async () => {
    setBusy(true);
    try {
      const result = await api.call('mcpServers.importApply', {
        text,
        ...(fileName ? { fileName } : {}),
        options: { choices: [...choices].map(([sourceName, choice]) => ({ sourceName, choice })), onConflict: 'skip', storeSecrets },
      });
      void message.success(
        t('mcpAdmin.import.done', { added: result.added.length + result.renamed.length, replaced: result.replaced.length, skipped: result.skipped.length, refused: result.refused.length }),
      );
      onDone();
    } catch (e) {
      void message.error(errorLine(e));
    } finally {
      setBusy(false);
    }
  };

  const importable = plan?.entries.filter((e) => e.status === 'add' || (e.status === 'conflict' && (choices.get(e.sourceName) ?? 'skip') !== 'skip')).length ?? 0;
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="mcp-import-panel">
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {t('mcpAdmin.import.help')}
      </Typography.Paragraph>
      <Space wrap>
        <Upload
          accept=".json,.jsonc,application/json"
          showUploadList={false}
          beforeUpload={(file) => {
            void file.text().then((body) => {
              setText(body);
              setFileName(file.name);
              void showPlan(body, file.name);
            });
            return false; // read here; nothing is uploaded
          }}
        >
          <Button icon={<UploadOutlined />} data-testid="mcp-import-file">
            {t('mcpAdmin.import.pick')}
          </Button>
        </Upload>
        {fileName ? <Tag>{fileName}</Tag> : null}
      </Space>
      <Input.TextArea
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setFileName(undefined);
          setPlan(undefined);
        }}
        autoSize={{ minRows: 6, maxRows: 14 }}
        placeholder={'{\n  "mcpServers": {\n    "filesystem": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/path"] }\n  }\n}'}
        className="mcp-import-text"
        data-testid="mcp-import-text"
      />
      <Space wrap>
        <Checkbox checked={storeSecrets} onChange={(e) => setStoreSecrets(e.target.checked)} data-testid="mcp-import-store-secrets">
          {t('mcpAdmin.import.storeSecrets')}
        </Checkbox>
        <Button onClick={() => void showPlan()} disabled={!text.trim()} loading={busy && !plan} data-testid="mcp-import-plan">
          {t('mcpAdmin.import.showPlan')}
        </Button>
      </Space>
      {plan ? (
        <>
          <ProblemList problems={plan.problems} testId="mcp-import-problems" />
          {plan.format ? <Typography.Text type="secondary">{t(`mcpAdmin.import.format.${plan.format}`)}</Typography.Text> : null}
          <Table<ImportEntry>
            size="small"
            rowKey="sourceName"
            pagination={false}
            dataSource={plan.entries}
            onRow={(entry) => ({ 'data-testid': `mcp-import-row-${entry.sourceName}`, 'data-status': entry.status }) as HTMLAttributes<HTMLElement>}
            columns={[
              {
                title: t('mcpAdmin.import.column.status'),
                dataIndex: 'status',
                width: 110,
                render: (status: ImportEntry['status']) => <Tag color={STATUS_COLOR[status]}>{t(`mcpAdmin.import.status.${status}`)}</Tag>,
              },
              {
                title: t('mcpAdmin.import.column.server'),
                key: 'server',
                render: (_: unknown, entry) => (
                  <Space orientation="vertical" size={0}>
                    <Typography.Text strong>{entry.name}</Typography.Text>
                    {entry.launch ? (
                      <Typography.Text code style={{ wordBreak: 'break-all' }}>
                        {entry.launch}
                      </Typography.Text>
                    ) : null}
                    {entry.run ? <ImportRunDetails run={entry.run} testId={`mcp-import-run-${entry.sourceName}`} /> : null}
                    {entry.conflict ? <Typography.Text type="warning">{t('mcpAdmin.import.conflictWith', { launch: entry.conflict.existingLaunch })}</Typography.Text> : null}
                    {entry.reason ? (
                      <Typography.Text type="danger">
                        {entry.reason.message} — {t('common.fix', { hint: entry.reason.hint })}
                      </Typography.Text>
                    ) : null}
                    {entry.notes.map((note, i) => (
                      <Typography.Text type={note.code === 'IMPORT_ENV_CHANGES_CODE' ? 'danger' : 'secondary'} key={i} style={{ fontSize: 12 }}>
                        {note.message}
                      </Typography.Text>
                    ))}
                  </Space>
                ),
              },
              {
                title: t('mcpAdmin.import.column.action'),
                key: 'action',
                width: 220,
                render: (_: unknown, entry) =>
                  entry.status === 'conflict' ? (
                    <Select<ConflictChoice>
                      value={choices.get(entry.sourceName) ?? 'skip'}
                      style={{ width: '100%' }}
                      onChange={(choice) => setChoices((c) => new Map(c).set(entry.sourceName, choice))}
                      data-testid={`mcp-import-choice-${entry.sourceName}`}
                      options={[
                        { value: 'skip', label: t('mcpAdmin.import.choice.skip') },
                        { value: 'replace', label: t('mcpAdmin.import.choice.replace') },
                        { value: 'rename', label: t('mcpAdmin.import.choice.rename', { name: entry.conflict!.suggestedName }) },
                      ]}
                    />
                  ) : entry.status === 'add' ? (
                    <Typography.Text>{t('mcpAdmin.import.willAdd')}</Typography.Text>
                  ) : (
                    <Typography.Text type="secondary">{t('mcpAdmin.import.cannot')}</Typography.Text>
                  ),
              },
            ]}
          />
          {plan.entries.length === 0 && !plan.problems.length ? <Alert type="info" showIcon title={t('mcpAdmin.import.empty')} /> : null}
          <Button type="primary" icon={<ImportOutlined />} disabled={importable === 0} loading={busy} onClick={() => void apply()} data-testid="mcp-import-apply">
            {t('mcpAdmin.import.apply', { count: importable })}
          </Button>
        </>
      ) : null}
    </Space>
  );
}
