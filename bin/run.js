#!/usr/bin/env node
import {execute, settings} from '@oclif/core'

// the compiled commands whatever NODE_ENV says: with NODE_ENV=development or test (vitest sets it),
// oclif would run ./commands' TypeScript through tsx instead of dist/ (4x the start-up, and not the
// code that ships)
settings.enableAutoTranspile = false

await execute({dir: import.meta.url})
