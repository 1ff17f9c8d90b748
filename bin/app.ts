import { App } from 'aws-cdk-lib';
import { defineApp } from '#lib/secrets-app';

defineApp(new App());
