import { i18n } from '@lingui/core'
import { afterEach } from 'vitest'
import { cleanup } from '@testing-library/react'

i18n.loadAndActivate({ locale: 'en', messages: {} })

afterEach(() => cleanup())
