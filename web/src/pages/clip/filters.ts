import type { TFunction } from 'i18next';
import { fetchProjects, fetchSeniorProjects } from '@/api/clip';
import { dateRangeField, intField, optionsField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';

/** /normal_mode: the project list's fields (clip.merchant_much_clip/index: name, status, created_at, updated_at). */
export function projectFilterFields(t: TFunction): FilterField[] {
  return [
    textField('name', t('clip:columns.name'), { selected: true }),
    optionsField('status', t('common:status'), [
      { value: '1', label: t('common:enabled') },
      { value: '0', label: t('common:disabled') },
    ]),
    dateRangeField('created_at', t('common:createdAt')),
    dateRangeField('updated_at', t('clip:columns.updatedAt')),
  ];
}

/** Project names of both modes for a remote select (the list engine's name include). */
export async function projectOptions(search: string) {
  const params = search ? { filterObj: { name: `${search}|include` }, limit: 50 } : { limit: 50 };
  const [normal, senior] = await Promise.all([fetchProjects(params), fetchSeniorProjects(params).catch(() => null)]);
  return [...(normal?.rows ?? []), ...(senior?.rows ?? [])].map((p) => ({ value: p.id, label: p.name }));
}

/** /piece_rep: the library's fields (project_id, state, used, duration_ms, created_at). */
export function libraryFilterFields(t: TFunction): FilterField[] {
  return [
    {
      value: 'project_id',
      label: t('clip:columns.project'),
      type: 'select',
      operators: ['include', 'notinclude'],
      operator: 'include',
      extend: { multiple: true, remote: true, request: projectOptions },
    },
    optionsField(
      'state',
      t('clip:columns.state'),
      (['processing', 'success', 'failed'] as const).map((s) => ({ value: s, label: t(`clip:state.${s}`) })),
      { multiple: true },
    ),
    optionsField('used', t('clip:columns.used'), [
      { value: '1', label: t('clip:used.yes') },
      { value: '0', label: t('clip:used.no') },
    ]),
    intField('duration_ms', t('clip:filters.durationMs')),
    dateRangeField('created_at', t('common:createdAt'), { selected: true }),
  ];
}
