-- Foundation: tenants, users, sessions, permissions, points, logs, jobs. Times are unix ms; JSON is TEXT.
CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);

CREATE TABLE merchants (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    status BIGINT NOT NULL DEFAULT 1,
    points BIGINT NOT NULL DEFAULT 0,
    vip_expires_at BIGINT,
    ai_token TEXT NOT NULL DEFAULT '',
    home_type BIGINT NOT NULL DEFAULT 2,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);

CREATE TABLE users (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT REFERENCES merchants(id),
    kind TEXT NOT NULL,
    username TEXT NOT NULL UNIQUE,
    nickname TEXT NOT NULL DEFAULT '',
    mobile TEXT UNIQUE,
    avatar TEXT NOT NULL DEFAULT '',
    password_hash TEXT NOT NULL,
    status BIGINT NOT NULL DEFAULT 1,
    menu_ids TEXT NOT NULL DEFAULT '[]',
    role_ids TEXT NOT NULL DEFAULT '[]',
    last_login_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX users_merchant ON users(merchant_id);

CREATE TABLE sessions (
    id TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL,
    remember BIGINT NOT NULL DEFAULT 0,
    proxy_user TEXT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX sessions_user ON sessions(user_id);

CREATE TABLE sms_codes (
    id BIGSERIAL PRIMARY KEY,
    mobile TEXT NOT NULL,
    scene TEXT NOT NULL,
    code TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX sms_codes_mobile ON sms_codes(mobile, created_at);

CREATE TABLE login_failures (
    key TEXT PRIMARY KEY,
    failures BIGINT NOT NULL,
    locked_until BIGINT,
    updated_at BIGINT NOT NULL
);

CREATE TABLE proxy_tokens (
    token TEXT PRIMARY KEY,
    merchant_id BIGINT NOT NULL,
    operator_id BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);

CREATE TABLE menus (
    id BIGSERIAL PRIMARY KEY,
    path TEXT NOT NULL UNIQUE,
    parent_path TEXT,
    name TEXT NOT NULL,
    icon TEXT NOT NULL DEFAULT '',
    hidden BIGINT NOT NULL DEFAULT 0,
    admin BIGINT NOT NULL DEFAULT 0,
    vip BIGINT NOT NULL DEFAULT 0,
    sort BIGINT NOT NULL DEFAULT 0,
    grants TEXT NOT NULL DEFAULT '[]'
);

CREATE TABLE roles (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    permissions TEXT NOT NULL DEFAULT '[]',
    created_at BIGINT NOT NULL
);

CREATE TABLE points_ledger (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants(id),
    change BIGINT NOT NULL,
    balance BIGINT NOT NULL,
    kind TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    job_key TEXT,
    operator TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL,
    UNIQUE (merchant_id, job_key)
);

CREATE TABLE op_logs (
    id BIGSERIAL PRIMARY KEY,
    merchant_id BIGINT,
    user_id BIGINT,
    username TEXT NOT NULL DEFAULT '',
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    action TEXT NOT NULL,
    result TEXT NOT NULL,
    status BIGINT NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    ip TEXT NOT NULL DEFAULT '',
    request_id TEXT NOT NULL DEFAULT '',
    created_at BIGINT NOT NULL
);
CREATE INDEX op_logs_merchant ON op_logs(merchant_id, created_at);

CREATE TABLE jobs (
    id BIGSERIAL PRIMARY KEY,
    kind TEXT NOT NULL,
    merchant_id BIGINT,
    payload TEXT NOT NULL DEFAULT '{}',
    state TEXT NOT NULL DEFAULT 'queued',
    run_at BIGINT NOT NULL,
    attempts BIGINT NOT NULL DEFAULT 0,
    max_attempts BIGINT NOT NULL DEFAULT 5,
    lease_owner TEXT,
    heartbeat_at BIGINT,
    progress BIGINT NOT NULL DEFAULT 0,
    last_error TEXT,
    idempotency_key TEXT UNIQUE,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    finished_at BIGINT
);
CREATE INDEX jobs_claim ON jobs(state, run_at);

CREATE TABLE version_logs (
    id BIGSERIAL PRIMARY KEY,
    version TEXT NOT NULL,
    content TEXT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE courses (
    id BIGSERIAL PRIMARY KEY,
    title TEXT NOT NULL,
    cover TEXT NOT NULL DEFAULT '',
    link TEXT NOT NULL DEFAULT '',
    sort BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);

CREATE TABLE banners (
    id BIGSERIAL PRIMARY KEY,
    title TEXT NOT NULL,
    image TEXT NOT NULL DEFAULT '',
    link TEXT NOT NULL DEFAULT '',
    sort BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);
