import TypedStreamTool

TypedStreamCommand.main()
