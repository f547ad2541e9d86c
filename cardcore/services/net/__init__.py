"""Networked tables: the protocol (``protocol``, ``wire``) and the server (``cardcore serve``)."""
