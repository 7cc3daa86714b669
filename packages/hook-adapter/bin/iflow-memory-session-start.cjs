#!/usr/bin/env node
require("../dist/session-start.cjs");
