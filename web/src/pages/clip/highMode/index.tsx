/**
 * /high_modeVisualization_clip — advanced mode (docs/api-clip.md): the quick-mix project list and form
 * with per-shot start, length, caption and transition; listed, saved and deleted through
 * /clip.merchant_senior_clip/*, planned and rendered through the quick-mix calls.
 */
import ProjectsPage from '../shared/ProjectsPage';

export default function HighModePage() {
  return <ProjectsPage mode="senior" />;
}
