/**
 * /normal_mode — quick-mix projects (docs/api-clip.md). The page is the shared project
 * list (../shared/ProjectsPage), which /high_modeVisualization_clip uses too.
 */
import ProjectsPage from '../shared/ProjectsPage';

export default function NormalModePage() {
  return <ProjectsPage mode="normal" />;
}
