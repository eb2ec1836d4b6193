import type { MenuNode } from '../auth/types';
import type { Millis } from '../types';

export interface MerchantRow {
  id: number;
  name: string;
  username: string;
  mobile: string | null;
  status: 1 | 0;
  points: number;
  vip_expires_at: Millis | null;
  created_at: Millis;
  staff_count: number;
}

export interface RoleRow {
  id: number;
  name: string;
  permissions: string[];
  created_at?: Millis;
}

export type TaskState = 'queued' | 'running' | 'done' | 'failed' | 'dead';

export interface TaskRow {
  id: number;
  kind: string;
  state: TaskState;
  attempts: number;
  max_attempts: number;
  progress: number;
  last_error: string | null;
  run_at: Millis;
  created_at: Millis;
  updated_at: Millis;
  merchant_id: number | null;
}

export interface MenuEditBody {
  id: MenuNode['id'];
  icon?: string;
  hidden?: boolean;
  vip?: boolean;
  sort?: number;
}

/** One option of a dictionary as stored (the label may be bilingual '中文 / English'). */
export interface DicOption {
  label: string;
  value: string;
}

export interface DicRow {
  id: number;
  name: string;
  title: string;
  options: DicOption[];
  updated_at: Millis;
}
