-- Where a hot-list board's rows came from: 1 = the bundled sandbox (the console marks them
-- "模拟数据 / Simulated"), 0 = the real platform.
ALTER TABLE hot_boards ADD COLUMN simulated INTEGER NOT NULL DEFAULT 0;
