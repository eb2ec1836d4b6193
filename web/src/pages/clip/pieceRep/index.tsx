/**
 * /piece_rep — the finished-video library (docs/api-clip.md): every rendered variant
 * (quick-mix and advanced projects) and every video imported from the video library, with its cover,
 * project ("Imported" for those), the clips it used, duration, synthesis state (progress bar while
 * rendering, the reason when it failed) and used / unused; play, mark used, delete (one or many),
 * continue adding unique variants to a project or render all it still allows, import finished videos,
 * download one (its file, resumable) or the selected ones as a zip streamed as it is written.
 * Progress comes from the `variant` events of /api/events; it polls every 2 s only while that is down.
 */
import {
  CheckCircleOutlined,
  DeleteOutlined,
  DownloadOutlined,
  ImportOutlined,
  PlayCircleOutlined,
  PlaySquareOutlined,
  PlusSquareOutlined,
  StopOutlined,
  UndoOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Popconfirm, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useMemo, useRef, useState, type Key } from 'react';
import { useSearchParams } from 'react-router';
import { cancelVariants, clipKeys, clipUrls, deleteVariants, downloadVideos, fetchProjects, fetchSeniorProjects, markUsed } from '@/api/clip';
import type { Plan, Project, RiskLevel, Variant, VariantState as State } from '@/api/clip/types';
import { useWrite } from '@/api/mutations';
import { saveLink } from '@/api/request';
import AiPartsTag from '@/components/AiPartsTag';
import RiskTag from '@/components/RiskTag';
import DataTable, { type DataTableColumn, type DataTableRef } from '@/components/DataTable';
import { FullscreenModal } from '@/components/ModalForm';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { libraryFilterFields } from '../filters';
import { formatDuration } from '../format';
import { useClipT } from '../i18n';
import { maxBatch } from '../rules';
import GenerateDialog, { type GenerateMode, type GenerateTarget } from '../shared/GenerateDialog';
import ImportDialog from './ImportDialog';
import { useRenderProgress } from './useRenderPolling';
import { isImported, UsedTag, VariantState } from './VariantState';
import '../clip.css';

const STATES: State[] = ['processing', 'success', 'failed'];
const RISK_LEVELS: RiskLevel[] = ['high', 'medium', 'low'];

/** Both modes' projects (advanced ones only when the user has advanced mode). */
async function fetchAllProjects(): Promise<Project[]> {
  const [normal, senior] = await Promise.all([fetchProjects(), fetchSeniorProjects().catch(() => null)]);
  return [...(normal?.rows ?? []), ...(senior?.rows ?? [])];
}

export default function PieceRepPage() {
  const { t } = useClipT();
  const table = useRef<DataTableRef>(null);
  const [search, setSearch] = useSearchParams();
  const projectId = Number(search.get('project_id')) || undefined;
  const [state, setState] = useState<State | undefined>();
  const [used, setUsed] = useState<'1' | '0' | undefined>();
  const [risk, setRisk] = useState<RiskLevel | undefined>();
  const [selected, setSelected] = useState<Key[]>([]);
  const [playing, setPlaying] = useState<Variant | null>(null);
  const [adding, setAdding] = useState<{ target: GenerateTarget; mode: GenerateMode } | null>(null);
  const [importing, setImporting] = useState(false);

  const projects = useQuery({ queryKey: ['clip', 'projectNames'], queryFn: fetchAllProjects });
  const projectRows = useMemo(() => projects.data ?? [], [projects.data]);
  const byId = useMemo(() => new Map(projectRows.map((p) => [p.id, p])), [projectRows]);

  // render events and polling read the rows again; a write marks the area stale
  const refresh = useCallback(() => table.current?.refresh(), []);
  const polling = useRenderProgress(refresh);
  const removal = useWrite(deleteVariants, clipKeys.all);
  const cancelling = useWrite(cancelVariants, clipKeys.all);
  const marking = useWrite(({ id, used: on }: { id: number; used: boolean }) => markUsed(id, on), clipKeys.all);

  const setProject = (id: number | undefined) => {
    const next = new URLSearchParams(search);
    if (id) next.set('project_id', String(id));
    else next.delete('project_id');
    setSearch(next, { replace: true });
  };

  const continueFor = (p: Project | undefined, mode: GenerateMode = 'continue') => {
    if (!p) return;
    setAdding({ target: { id: p.id, name: p.name, output_count: p.config.output_count, capacity: p.capacity }, mode });
  };
  const nameOf = (row: Variant) =>
    isImported(row) ? (row.clips[0]?.name ?? `#${row.id}`) : (row.project_name ?? byId.get(row.project_id)?.name ?? `#${row.project_id}`);

  const remove = async (ids: number[]) => {
    try {
      await removal.mutateAsync(ids);
      feedback.success(t('common:deletedSuccessfully'));
      // back to page 1 with the selection cleared
      table.current?.toFirstPage();
    } catch {
      /* toasted (422 while one renders) */
    }
  };

  const cancel = async (ids: number[]) => {
    try {
      await cancelling.mutateAsync(ids);
      feedback.success(t('library.cancelled'));
    } catch {
      /* toasted (it finished meanwhile) */
    }
  };

  /** One video downloads as itself (resumable), several as one zip streamed as it is written. */
  const [downloading, setDownloading] = useState(false);
  const download = async (ids: number[]) => {
    setDownloading(true);
    try {
      const link = await downloadVideos(ids);
      saveLink(link.url);
      feedback.success(
        link.zip
          ? t('library.downloadZipStarted', { count: link.files, size: `${Math.max(1, Math.round(link.bytes / 1e6))} MB` })
          : t('library.downloadStarted'),
      );
    } catch {
      /* toasted (404: not one of yours; 422: still rendering, too many) */
    } finally {
      setDownloading(false);
    }
  };

  const toggleUsed = async (row: Variant) => {
    try {
      await marking.mutateAsync({ id: row.id, used: !row.used });
      feedback.success(row.used ? t('library.markedUnused') : t('library.markedUsed'));
    } catch {
      /* toasted */
    }
  };

  const columns = useMemo<DataTableColumn<Variant>[]>(
    () => [
      {
        title: t('columns.cover'),
        key: 'cover',
        width: 84,
        render: (_, row) =>
          row.cover ? (
            <img
              src={row.cover}
              alt={`#${row.id}`}
              className={`cm-variant-cover${row.state === 'success' ? ' cm-clickable' : ''}`}
              onClick={() => row.state === 'success' && setPlaying(row)}
              data-testid={`variant-cover-${row.id}`}
            />
          ) : (
            <div className="cm-variant-cover cm-variant-cover-empty" data-testid={`variant-cover-${row.id}`} />
          ),
      },
      { title: 'ID', dataIndex: 'id', width: 80, hide: true },
      {
        title: t('columns.project'),
        dataIndex: 'project_id',
        sorter: true,
        width: 170,
        render: (_id: number, row) => (
          <Space orientation="vertical" size={0}>
            {/* the tag on its own line: beside the name it pushed a long name over the next column */}
            {isImported(row) || row.ai_parts?.length ? (
              <Space size={4}>
                {isImported(row) ? (
                  <Tag color="cyan" style={{ marginInlineEnd: 0 }} data-testid={`variant-imported-${row.id}`}>
                    {t('library.imported')}
                  </Tag>
                ) : null}
                <AiPartsTag parts={row.ai_parts} testId={`variant-ai-${row.id}`} />
              </Space>
            ) : null}
            <Typography.Text strong ellipsis style={{ maxWidth: 160 }} title={nameOf(row)} data-testid={`variant-project-${row.id}`}>
              {nameOf(row)}
            </Typography.Text>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              #{row.id} · {formatTime(row.created_at)}
            </Typography.Text>
          </Space>
        ),
      },
      {
        title: t('columns.clips'),
        key: 'clips',
        render: (_, row) => (
          <Space size={[0, 4]} wrap data-testid={`variant-clips-${row.id}`}>
            {row.clips.map((c, i) => (
              <Tag key={`${c.id}-${i}`}>{c.name ?? t('library.clipDeleted', { id: c.id })}</Tag>
            ))}
          </Space>
        ),
      },
      { title: t('columns.duration'), dataIndex: 'duration_ms', width: 124, sorter: true, render: formatDuration },
      {
        title: t('columns.state'),
        dataIndex: 'state',
        width: 160,
        sorter: true,
        render: (_, raw) => <VariantState row={polling.merge(raw)} />,
      },
      {
        title: t('widgets:risk.column'),
        dataIndex: 'risk',
        width: 120,
        sorter: true,
        render: (_, row) => <RiskTag risk={row.risk} level={row.risk_level} reasons={row.risk_reasons} testId={`variant-risk-${row.id}`} />,
      },
      { title: t('columns.used'), dataIndex: 'used', width: 90, sorter: true, render: (_, row) => <UsedTag row={row} /> },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, sorter: true, render: formatTime, hide: true },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 300,
        render: (_, row) => {
          const done = row.state === 'success';
          const project = byId.get(row.project_id);
          return (
            <Space size={0} wrap>
              <Button type="link" size="small" icon={<PlayCircleOutlined />} disabled={!done || !row.src} onClick={() => setPlaying(row)} data-testid={`variant-play-${row.id}`}>
                {t('library.play')}
              </Button>
              <Button type="link" size="small" icon={<DownloadOutlined />} disabled={!done || !row.src} onClick={() => void download([row.id])} data-testid={`variant-download-${row.id}`}>
                {t('library.download')}
              </Button>
              <Button
                type="link"
                size="small"
                icon={row.used ? <UndoOutlined /> : <CheckCircleOutlined />}
                disabled={!done}
                onClick={() => void toggleUsed(row)}
                data-testid={`variant-use-${row.id}`}
              >
                {row.used ? t('library.markUnused') : t('library.markUsed')}
              </Button>
              {isImported(row) ? null : (
                <Button
                  type="link"
                  size="small"
                  icon={<PlusSquareOutlined />}
                  disabled={!project || project.status !== 1 || project.capacity <= 0}
                  onClick={() => continueFor(project)}
                  data-testid={`variant-continue-${row.id}`}
                >
                  {t('project.continue')}
                </Button>
              )}
              {row.state === 'processing' ? (
                <Popconfirm
                  title={t('library.cancelConfirm')}
                  description={t('library.cancelHelp')}
                  okText={t('library.cancel')}
                  cancelText={t('common:cancel')}
                  okButtonProps={{ danger: true, 'data-testid': `variant-cancel-ok-${row.id}` } as never}
                  onConfirm={() => cancel([row.id])}
                >
                  <Button type="link" size="small" danger icon={<StopOutlined />} data-testid={`variant-cancel-${row.id}`}>
                    {t('library.cancel')}
                  </Button>
                </Popconfirm>
              ) : null}
              <Popconfirm
                title={t('library.deleteConfirm', { count: 1 })}
                description={t('library.deleteHelp')}
                okText={t('common:delete')}
                cancelText={t('common:cancel')}
                okButtonProps={{ danger: true, 'data-testid': `variant-delete-ok-${row.id}` } as never}
                onConfirm={() => remove([row.id])}
                disabled={row.state === 'processing'}
              >
                <Button type="link" size="small" danger icon={<DeleteOutlined />} disabled={row.state === 'processing'} data-testid={`variant-delete-${row.id}`}>
                  {t('common:delete')}
                </Button>
              </Popconfirm>
            </Space>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, byId, polling.merge],
  );

  const filterFields = useMemo(() => libraryFilterFields(t), [t]);
  const params = useMemo(() => {
    const p: Record<string, unknown> = {};
    if (projectId) p.project_id = projectId;
    if (state) p.state = state;
    if (used) p.used = used;
    if (risk) p.risk_level = risk;
    return Object.keys(p).length ? p : undefined;
  }, [projectId, state, used, risk]);
  const chosen = projectId ? byId.get(projectId) : undefined;
  const chosenOff = !chosen || chosen.status !== 1 || chosen.capacity <= 0;

  return (
    <div className="cm-clip-page" data-testid="piece-rep-page">
      <PageHeader
        title={t('common:menu.pieceRep')}
        subTitle={t('library.subtitle')}
        extra={
          <Space wrap>
            <Button icon={<ImportOutlined />} onClick={() => setImporting(true)} data-testid="library-import">
              {t('library.import')}
            </Button>
            <Tooltip title={chosen ? undefined : t('library.chooseProject')}>
              <Button type="primary" icon={<PlusSquareOutlined />} disabled={chosenOff} onClick={() => continueFor(chosen)} data-testid="library-continue">
                {t('project.continue')}
              </Button>
            </Tooltip>
          </Space>
        }
      />
      <DataTable<Variant>
        ref={table}
        id="library"
        queryKey={clipKeys.all}
        api={clipUrls.library}
        exportApi={clipUrls.libraryExport}
        params={params}
        columns={columns}
        filterFields={filterFields}
        selectable
        onSelectionChange={(keys) => setSelected(keys)}
        onLoad={(list) => polling.onLoad(list.rows)}
        scrollX={1000}
        toolbar={
          <Space wrap>
            <Select<number>
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('library.allProjects')}
              value={projectId}
              onChange={(v) => setProject(v ?? undefined)}
              loading={projects.isFetching}
              options={projectRows.map((p) => ({ value: p.id, label: p.name }))}
              style={{ width: 200 }}
              data-testid="library-project"
            />
            <Select<State>
              allowClear
              placeholder={t('library.allStates')}
              value={state}
              onChange={setState}
              options={STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
              style={{ width: 140 }}
              data-testid="library-state"
            />
            <Select<'1' | '0'>
              allowClear
              placeholder={t('library.allUsed')}
              value={used}
              onChange={setUsed}
              options={[
                { value: '1', label: t('used.yes') },
                { value: '0', label: t('used.no') },
              ]}
              style={{ width: 140 }}
              data-testid="library-used"
            />
            <Select<RiskLevel>
              allowClear
              placeholder={t('library.allRisks')}
              value={risk}
              onChange={setRisk}
              options={RISK_LEVELS.map((l) => ({ value: l, label: t('library.riskLevel', { level: t(`widgets:risk.level.${l}`) }) }))}
              style={{ width: 140 }}
              data-testid="library-risk"
            />
            {chosen ? (
              <Button icon={<PlaySquareOutlined />} disabled={chosenOff} onClick={() => continueFor(chosen, 'all')} data-testid="library-render-all">
                {t('project.renderAll', { count: maxBatch(chosen.capacity) })}
              </Button>
            ) : null}
            <Button icon={<DownloadOutlined />} disabled={!selected.length} loading={downloading} onClick={() => void download(selected.map(Number))} data-testid="library-download">
              {t('library.downloadSelected', { count: selected.length })}
            </Button>
            <Popconfirm
              title={t('library.deleteConfirm', { count: selected.length })}
              description={t('library.deleteHelp')}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': 'library-delete-ok' } as never}
              onConfirm={() => remove(selected.map(Number))}
              disabled={!selected.length}
            >
              <Button danger icon={<DeleteOutlined />} disabled={!selected.length} data-testid="library-delete">
                {t('library.deleteSelected', { count: selected.length })}
              </Button>
            </Popconfirm>
            {polling.processing.length ? (
              <Typography.Text type="secondary" data-testid="library-rendering">
                {t('library.rendering', { count: polling.processing.length })}
              </Typography.Text>
            ) : null}
          </Space>
        }
      />
      <FullscreenModal
        open={playing !== null}
        title={playing ? t('library.playTitle', { id: playing.id, name: nameOf(playing) }) : ''}
        onCancel={() => setPlaying(null)}
        footer={null}
        width={480}
        testId="variant-player"
        destroyOnHidden
      >
        {playing?.src ? (
          <div className="cm-player">
            <video key={playing.src} src={playing.src} poster={playing.cover ?? undefined} controls autoPlay playsInline data-testid="variant-video" />
            <Typography.Text type="secondary">
              {formatDuration(playing.duration_ms)} · {playing.clips.map((c) => c.name ?? `#${c.id}`).join(' → ')}
            </Typography.Text>
          </div>
        ) : null}
      </FullscreenModal>
      <GenerateDialog
        target={adding?.target ?? null}
        mode={adding?.mode ?? 'continue'}
        onClose={() => setAdding(null)}
        onDone={(plan: Plan) => {
          setAdding(null);
          feedback.success(t('generate.started', { count: plan.variant_ids?.length ?? plan.sequences.length, points: plan.points }));
        }}
      />
      <ImportDialog
        open={importing}
        onClose={() => setImporting(false)}
        onDone={(ids) => {
          setImporting(false);
          feedback.success(t('library.importedDone', { count: ids.length }));
          // the imported rows are shown first; the import marked the list stale
          table.current?.toFirstPage();
        }}
      />
    </div>
  );
}
