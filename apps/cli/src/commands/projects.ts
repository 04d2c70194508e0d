import { Command } from '@commander-js/extra-typings';
import { resolveWorkspace, sessionApi } from '../command-context.ts';
import { examples } from './options.ts';
import { runCommand } from './run-command.ts';
import { workspaceListCommand } from './workspace-list.ts';

const projectsListCommand = () =>
  workspaceListCommand({
    description: "The workspace's projects (a form belongs to one; see forms create --project)",
    fetch: (api, workspaceId, input) => api.projects.list.query({ workspace_id: workspaceId, ...input }),
    columns: [
      { header: 'ID', value: (p) => p.id },
      { header: 'NAME', value: (p) => p.name, shrink: true },
      { header: 'DEFAULT', value: (p) => (p.is_default ? 'yes' : '') },
      { header: 'CREATED', value: (p) => p.created_at, time: true, optional: true },
    ],
    commandLine: 'lfk projects list',
  });

const projectsCreateCommand = () =>
  new Command('create')
    .description('Create a project (owners)')
    .argument('<name>', "the project's name")
    .action((name, _flags, command) =>
      runCommand(command, async (ctx) => {
        const api = await sessionApi(ctx);
        const workspaceId = await resolveWorkspace(ctx, api);
        const project = await api.projects.create.mutate({ workspace_id: workspaceId, name });
        ctx.out.result(project, (project) => {
          ctx.out.line(`Created project ${project.name} (${project.id}).`);
          ctx.out.line(`Put a form in it with 'lfk forms create --project ${project.id} …'.`);
        });
      }),
    );

export const projectsCommand = () =>
  new Command('projects')
    .description("List and create the workspace's projects")
    .addHelpText('after', examples(['lfk projects list', 'lfk projects create "Marketing site"']))
    .addCommand(projectsListCommand())
    .addCommand(projectsCreateCommand());
