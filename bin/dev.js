#!/usr/bin/env -S node --import tsx
// Dev entry: runs ./commands/*.ts through the tsx loader, so no build step is needed.
import {execute, settings} from '@oclif/core'
import {readFileSync} from 'node:fs'
import {fileURLToPath} from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const pjson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
pjson.oclif.commands = './commands'
pjson.oclif.hooks = {command_not_found: './src/cli/notFound.ts'}
settings.enableAutoTranspile = false

await execute({development: true, dir: import.meta.url, loadOptions: {root, pjson}})
