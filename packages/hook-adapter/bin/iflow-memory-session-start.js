#!/usr/bin/env node
import "../dist/session-start.js";
