-- Scale-out: when a job's current attempt started, for the run times /metrics reports.
ALTER TABLE jobs ADD COLUMN started_at BIGINT;
CREATE INDEX jobs_finished ON jobs(finished_at);

