import type { ComponentType } from 'react';
import type { PermissionMode } from '@/access/permission';
import type { Language } from '@/config';
import type { IconName } from './icons';

export interface AppRouteMeta {
  /** i18n key of the title (common namespace, `menu.*`). */
  title: string;
  icon?: IconName;
  /** Permission the route's calls need; the server enforces it, the UI uses it to show entries. */
  permission?: string | string[];
  permissionMode?: PermissionMode;
  /** Only for role Administrator. */
  admin?: boolean;
  /** Never in the side menu. */
  hidden?: boolean;
  /** Another route of the same page (SPEC's several paths of one screen): the menu granting that path grants this one. */
  menuPath?: string;
  /**
   * Only in this console language's route table (SPEC §2: the zh-cn table is richer than the English
   * one). Left out of the other language's menu, and its page says so there.
   */
  lang?: Language;
  /** Membership function. */
  vip?: boolean;
  /** false: a sign-in page outside the layout, reachable without a session. */
  layout?: false;
}

export interface AppRoute {
  path: string;
  meta: AppRouteMeta;
  load: () => Promise<{ default: ComponentType }>;
}
